import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey, sha256Hex } from '../src/auth/api-key-secret.js';
import { GATE_ORDER } from '../src/execution/gates.js';
import type { GateName } from '../src/execution/gate-verdict.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { TEST_WALLET, walletSession } from './support/wallet.js';

const OPERATOR = 'operator-token-for-gate-order-0123456789';
const keys = { live: newApiKey(), noSession: newApiKey() };
let gw: TestGateway;
let ref = 0;

beforeAll(async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-gate-order-')), 'bootstrap.json');
  const all = ['data:read', 'execute:preview', 'execute:live'];
  writeFileSync(
    path,
    JSON.stringify({
      accounts: [{ id: 'acct-1', wallet: TEST_WALLET.address, balances: { USDC: '100000' } }],
      apiKeys: [
        { id: 'k-live', accountId: 'acct-1', sha256: sha256Hex(keys.live), scopes: all },
        { id: 'k-nosession', accountId: 'acct-1', sha256: sha256Hex(keys.noSession), scopes: all },
      ],
    }),
  );
  gw = await startGateway({ bootstrapPath: path, siweDomain: 'gateway.test', operatorToken: OPERATOR }, SESSION_TIME);
  const session = await call(gw, 'POST', '/api/v1/agent-sessions', await walletSession(gw), {
    apiKeyId: 'k-live',
    protocols: ['paper-perps'],
    actions: ['place_order'],
    assets: ['BTC'],
    maxOrderNotional: '100000000',
    maxPeriodNotional: '1000000000',
    periodSeconds: 3600,
    expiresAt: new Date(SESSION_TIME + 30 * 86_400_000).toISOString(),
  });
  expect(session.status).toBe(200);
});
afterAll(() => gw.close());

const operator = (change: Record<string, unknown>) => call(gw, 'PATCH', '/api/v1/operator/controls', OPERATOR, change);

/** A request the test shapes so that chosen gates block: which key, which body, what happens first. */
interface Case {
  key: string;
  order: Record<string, unknown>;
  preview: boolean;
  setUp: (() => Promise<void>)[];
  tearDown: (() => Promise<void>)[];
}

/** How to make each gate, and only it, block. */
const BLOCKERS: Record<GateName, { code: string; apply(c: Case): void | Promise<void> }> = {
  feature_flag: {
    code: 'EXECUTION_DISABLED',
    apply: (c) => {
      c.setUp.push(async () => void (await operator({ executionEnabled: false })));
      c.tearDown.push(async () => void (await operator({ executionEnabled: true })));
    },
  },
  certification: {
    code: 'ACTION_CANARY_ONLY',
    apply: (c) => {
      const protocols = gw.app.services.protocols;
      c.setUp.push(async () => protocols.setCertification('paper-perps', 'place_order', 'canary', new Date().toISOString()));
      c.tearDown.push(async () => protocols.setCertification('paper-perps', 'place_order', 'certified', new Date().toISOString()));
    },
  },
  venue: {
    code: 'VENUE_UNHEALTHY',
    apply: (c) => {
      c.setUp.push(async () => void (await operator({ killSwitch: true, reason: 'gate order test' })));
      c.tearDown.push(async () => void (await operator({ killSwitch: false })));
    },
  },
  authority: { code: 'POLICY_DENIED', apply: (c) => void (c.key = keys.noSession) },
  quote: { code: 'QUOTE_STALE', apply: (c) => void (c.preview = false) },
  // 2 BTC of margin at leverage 1 is more than the account's 100,000 USDC.
  balance: { code: 'INSUFFICIENT_BALANCE', apply: (c) => void (c.order = { ...c.order, assetIn: { token: 'BTC', amount: '2' } }) },
  idempotency: {
    code: 'IDEMPOTENCY_CONFLICT',
    // The referenceId is executed first with another body; its preview record then expires.
    apply: async (c) => {
      const first = perpOrder(c.order.referenceId as string, { assetIn: { token: 'BTC', amount: '0.01' } });
      expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.live, first)).status).toBe(200);
      expect((await call(gw, 'POST', '/api/v1/execute', keys.live, first)).status).toBe(200);
      gw.clock.advance(61_000);
      await gw.app.services.ingest.pollAll();
    },
  },
};

/**
 * The order the gates run in (the code's list must match): the spec's gate list puts idempotency
 * before policy controls and approval, so a used referenceId is a conflict before anything else about it.
 */
const DESIGN_ORDER: readonly GateName[] = ['feature_flag', 'certification', 'venue', 'idempotency', 'authority', 'quote', 'balance'];
const pairs = DESIGN_ORDER.flatMap((a, i) => DESIGN_ORDER.slice(i + 1).map((b) => [a, b] as const));

describe('gate order: when two gates block, the earlier one answers', () => {
  it('runs the gates in the contract order, and the pairs cover every two of them', () => {
    expect(GATE_ORDER).toEqual(DESIGN_ORDER);
    expect(pairs).toHaveLength(21);
  });

  it.each(pairs)('%s before %s: on preview, on execute, and first in capabilities', async (first, second) => {
    const c: Case = { key: keys.live, order: perpOrder(`pair-${++ref}`), preview: true, setUp: [], tearDown: [] };
    for (const gate of [first, second]) await BLOCKERS[gate].apply(c);
    for (const step of c.setUp) await step();
    try {
      if (c.preview) {
        const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', c.key, c.order)).json();
        // A preview is itself the quote, so the quote gate cannot block one: the other gate answers.
        const expected = first === 'quote' ? second : first;
        const blocks = preview.gates.filter((g: any) => g.status === 'block');
        expect(blocks).toEqual([expect.objectContaining({ gate: expected, code: BLOCKERS[expected].code })]);
        const after = preview.gates.slice(DESIGN_ORDER.indexOf(expected) + 1);
        expect(after.every((g: any) => g.status === 'not_evaluated')).toBe(true);
      }
      const res = await call(gw, 'POST', '/api/v1/execute', c.key, c.order);
      const body = await res.json();
      expect({ code: body.code, gate: body.details?.gate }).toEqual({ code: BLOCKERS[first].code, gate: first });
      if (['feature_flag', 'certification', 'venue', 'authority'].includes(first)) {
        const caps = (await (await call(gw, 'GET', '/api/v1/capabilities', c.key)).json()).data;
        const place = caps.protocols.find((p: any) => p.id === 'paper-perps').actions.find((a: any) => a.action === 'place_order');
        expect(place.blockedBy[0]).toMatchObject({ gate: first, code: BLOCKERS[first].code });
      }
    } finally {
      for (const step of c.tearDown) await step();
    }
  });
});
