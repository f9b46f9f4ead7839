import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../src/domain/decimal.js';
import { ROUTED_UNSEEN_MS } from '../src/execution/execution-reconciler.js';
import type { ExecutionVenue } from '../src/execution/venues/execution-venue.js';
import { followExecutions as followExecutionsOf } from './support/execution-events.js';
import { btcPerpSession, call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { ScriptedRoutedVenue } from './support/scripted-routed-venue.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * The execution core on a venue that holds orders (the states a real venue's order takes), its
 * venue side scripted in memory: the real venues' adapters are tested against their wire fakes.
 */
let gw: TestGateway;
let keys: BootstrapKeys;
let wallet: string;
let venue: ScriptedRoutedVenue;
/** A second routed venue whose signer is not ready (the equities broker). */
let unready: ScriptedRoutedVenue;

const limit = (referenceId: string, overrides: Record<string, unknown> = {}) =>
  perpOrder(referenceId, { metadata: { side: 'buy', type: 'limit', price: '60000', timeInForce: 'gtc' }, ...overrides });

async function execute(order: Record<string, unknown>): Promise<{ status: number; body: any }> {
  expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
  const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
  return { status: res.status, body: await res.json() };
}

/** executionUpdated of the test key, over a real graphql-ws client. */
const followExecutions = (selection: string) => followExecutionsOf(gw.baseUrl, keys.full, selection);

const read = async (executionId: string) => (await (await call(gw, 'GET', `/api/v1/execute/executions/${executionId}`, keys.full)).json()) as any;

beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME, {
    faults: {
      venues: (venues: Map<string, ExecutionVenue>) => {
        venue = new ScriptedRoutedVenue(venues.get('paper-perps')!);
        unready = new ScriptedRoutedVenue(venues.get('paper-equities')!);
        unready.ready = { ready: false, reason: 'the API wallet is not an approved agent of the account' };
        return new Map([...venues, ['paper-perps', venue], ['paper-equities', unready]]);
      },
    },
  });
  wallet = await walletSession(gw);
  expect((await call(gw, 'POST', '/api/v1/agent-sessions', wallet, btcPerpSession({}, gw.clock.now()))).status).toBe(200);
  gw.app.services.execution.orders.start();
});
afterAll(() => gw.close());

describe('an order that rests at its venue', () => {
  it('is open, then partially filled and filled as the venue streams it; REST and subscriptions follow, and the audit chain', async () => {
    const { events, close } = await followExecutions('executionId state fill { filledAmount } order { clientOrderId resting }');
    const { status, body } = await execute(limit('rest-1'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ state: 'open', order: { resting: true, venueOrderId: 'v-1' }, fill: null });
    expect(body.order.clientOrderId).toBe(venue.clientOrderIdFor('acct-1', 'rest-1'));
    venue.fillOrder(body.order.clientOrderId, '0.04', '60000');
    await waitFor(async () => (await read(body.executionId)).state === 'partially_filled');
    expect((await read(body.executionId)).fill).toMatchObject({ filledAmount: '0.04', requestedAmount: '0.1', price: '60000' });
    expect((await read(body.executionId)).order.resting).toBe(true);
    venue.fillOrder(body.order.clientOrderId, undefined, '60000');
    await waitFor(async () => (await read(body.executionId)).state === 'filled');
    expect((await read(body.executionId)).order.resting).toBe(false);
    await waitFor(() => events.filter((e) => e?.executionId === body.executionId).length >= 3);
    expect(events.filter((e) => e.executionId === body.executionId).map((e) => e.state)).toEqual(
      expect.arrayContaining(['open', 'partially_filled', 'filled']),
    );
    await close();
    const audit = await (await call(gw, 'GET', '/api/v1/audit?limit=50', keys.full)).json();
    const mine = audit.entries.filter((e: any) => JSON.stringify(e).includes(body.executionId)).map((e: any) => JSON.stringify(e));
    for (const state of ['open', 'partially_filled', 'filled'])
      expect(
        mine.some((e: string) => e.includes(`"state":"${state}"`)),
        state,
      ).toBe(true);
    expect(audit.chainValid).toBe(true);
  });

  it('filled before its fills were read: the fee the venue reports later is recorded, told and audited; an older update never undoes it', async () => {
    const { events, close } = await followExecutions('executionId state fill { fee price }');
    const { body } = await execute(limit('fee-later-1'));
    const id = body.order.clientOrderId;
    const unknownFee = venue.fillOrder(id, undefined, '59990', { feeUnknown: true });
    await waitFor(async () => (await read(body.executionId)).state === 'filled');
    expect((await read(body.executionId)).fill).toMatchObject({ filledAmount: '0.1', price: '59990', fee: '0' });

    venue.reportFills(id, '2.9995', '59990');
    await waitFor(async () => (await read(body.executionId)).fill.fee === '2.9995');
    const after = await read(body.executionId);
    expect(after).toMatchObject({ state: 'filled', fill: { filledAmount: '0.1', price: '59990', notional: '5999', fee: '2.9995', feeToken: 'USDC' } });
    await waitFor(() => events.some((e) => e?.executionId === body.executionId && e.fill?.fee === '2.9995'));

    // The update without fees, arriving after the one with them: the fee stays the venue's.
    venue.streamLate(unknownFee);
    await new Promise((r) => setTimeout(r, 300));
    expect((await read(body.executionId)).fill.fee).toBe('2.9995');
    expect((await read(body.executionId)).history.filter((h: any) => h.state === 'filled')).toHaveLength(1);

    await close();
    const audit = await (await call(gw, 'GET', '/api/v1/audit?limit=50', keys.full)).json();
    const reported = audit.entries.filter((e: any) => JSON.stringify(e).includes(body.executionId) && JSON.stringify(e).includes('"fillReported":true'));
    expect(reported).toHaveLength(1);
    expect(JSON.stringify(reported[0])).toContain('"fee":"2.9995"');
    expect(audit.chainValid).toBe(true);
  });

  it('is cancelled by DELETE, the rest given back; a second cancel is a 409 naming why', async () => {
    const { body } = await execute(limit('rest-2'));
    expect(body.state).toBe('open');
    const { agentSessions, executions } = gw.app.stores.execution;
    const stored = (await executions.get(body.executionId))!;
    const spentBefore = new Decimal(await agentSessions.spent(stored.agentSessionId!, stored.spend!.periodStart));
    venue.fillOrder(body.order.clientOrderId, '0.03');
    await waitFor(async () => (await read(body.executionId)).state === 'partially_filled');
    const cancelled = await call(gw, 'DELETE', `/api/v1/execute/executions/${body.executionId}`, keys.full);
    expect(cancelled.status).toBe(200);
    const answer = await cancelled.json();
    expect(answer).toMatchObject({ state: 'cancelled', order: { resting: false }, fill: { filledAmount: '0.03' } });
    // The session keeps counting what filled before the cancel; only the unfilled rest is given back.
    const spentAfter = new Decimal(await agentSessions.spent(stored.agentSessionId!, stored.spend!.periodStart));
    expect(spentAfter.minus(spentBefore).plus(new Decimal(stored.spend!.amount)).toString()).toBe(new Decimal(answer.fill.notional).toString());
    const again = await call(gw, 'DELETE', `/api/v1/execute/executions/${body.executionId}`, keys.full);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'execution_not_open' });
    // A paper execution has nothing resting to cancel either.
    const unknownId = await call(gw, 'DELETE', '/api/v1/execute/executions/exe_nope', keys.full);
    expect(unknownId.status).toBe(404);
  });

  it('a cancel is gated as a live action: the kill switch refuses it, audited', async () => {
    const { body } = await execute(limit('rest-3'));
    gw.app.services.controls.engageKillSwitch('test halt');
    try {
      const res = await call(gw, 'DELETE', `/api/v1/execute/executions/${body.executionId}`, keys.full);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'VENUE_UNHEALTHY', details: { check: 'kill_switch' } });
      expect((await read(body.executionId)).state).toBe('open');
    } finally {
      gw.app.services.controls.releaseKillSwitch();
    }
    const readOnly = await call(gw, 'DELETE', `/api/v1/execute/executions/${body.executionId}`, keys.readOnly);
    expect(readOnly.status).toBe(401);
  });
});

describe('the cancel route, as a hostile or careless caller sends it', () => {
  it('no key, a bad or revoked key, a preview-only key, a malformed or huge id, a body, many at once: each a 4xx or 429, nothing cancelled', async () => {
    const { body } = await execute(limit('hostile-cancel-1'));
    const path = `/api/v1/execute/executions/${body.executionId}`;
    const statuses: Record<string, number> = {};
    statuses.noKey = (await call(gw, 'DELETE', path, undefined)).status;
    statuses.badKey = (await call(gw, 'DELETE', path, 'gw_live_not-a-key')).status;
    statuses.revoked = (await call(gw, 'DELETE', path, keys.revoked)).status;
    statuses.previewOnly = (await call(gw, 'DELETE', path, keys.previewOnly)).status;
    statuses.encoded = (await call(gw, 'DELETE', '/api/v1/execute/executions/%E0%A4%A', keys.full)).status;
    statuses.huge = (await call(gw, 'DELETE', `/api/v1/execute/executions/${'x'.repeat(20_000)}`, keys.full)).status;
    statuses.traversal = (await call(gw, 'DELETE', '/api/v1/execute/executions/..%2F..%2Fkeys', keys.full)).status;
    statuses.withBody = (await call(gw, 'DELETE', `/api/v1/execute/executions/exe_nope`, keys.full, { executionId: body.executionId })).status;
    for (const [what, status] of Object.entries(statuses)) expect(status >= 400 && status < 500, `${what}: ${status}`).toBe(true);
    expect((await read(body.executionId)).state).toBe('open');
    // Many at once: one cancel, the others the venue's state or a 409; never a 5xx.
    const many = await Promise.all(Array.from({ length: 20 }, () => call(gw, 'DELETE', path, keys.full)));
    const codes = many.map((r) => r.status);
    expect(
      codes.every((c) => c === 200 || c === 409 || c === 429),
      codes.join(','),
    ).toBe(true);
    expect(codes).toContain(200);
    expect((await read(body.executionId)).state).toBe('cancelled');
  });
});

describe('who may trade on a real venue', () => {
  it('only the gateway account the venue account is bound to; others are refused at preview, nothing sent', async () => {
    venue.boundAccount = 'acct-2';
    try {
      const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, limit('bound-1'))).json();
      expect(preview.gates[2]).toMatchObject({ gate: 'venue', status: 'block', code: 'POLICY_DENIED' });
      const { status, body } = await execute(limit('bound-1'));
      expect([status, body.code, body.details.check]).toEqual([403, 'POLICY_DENIED', 'venue_account']);
    } finally {
      venue.boundAccount = 'acct-1';
    }
    expect(venue.placed).not.toContain(venue.clientOrderIdFor('acct-1', 'bound-1'));
  });

  it('only while its signer is ready: otherwise VENUE_UNHEALTHY naming why, never the credential', async () => {
    const order = {
      protocol: 'paper-equities',
      action: 'place_order',
      assetIn: { token: 'AAPL', amount: '1' },
      metadata: { side: 'buy', type: 'market' },
      referenceId: 'signer-1',
    };
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).json();
    expect(preview.gates[2]).toMatchObject({ gate: 'venue', status: 'block', code: 'VENUE_UNHEALTHY' });
    const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
    const body = await res.json();
    expect([res.status, body.code, body.details.check]).toEqual([503, 'VENUE_UNHEALTHY', 'signer']);
    expect(body.message).toContain('not an approved agent');
    expect(unready.placed).toEqual([]);
  });
});

describe('the venue account', () => {
  it("is the venue's truth, shown beside the paper ledger in positions and portfolio (REST and GraphQL), never mixed in", async () => {
    const positions = await (await call(gw, 'GET', '/api/v1/data/positions', keys.full)).json();
    // Both routed venues of this gateway are bound to acct-1.
    expect(positions.data.venues.map((v: any) => v.protocol)).toEqual(['paper-perps', 'paper-equities']);
    expect(positions.data.venues.slice(0, 1)).toEqual([
      {
        protocol: 'paper-perps',
        account: 'scripted',
        available: [{ token: 'USDC', amount: '1000000' }],
        equity: [{ token: 'USDC', amount: '1000000' }],
        positions: [],
        asOf: expect.any(String),
        unavailable: null,
      },
    ]);
    const portfolio = await (await call(gw, 'GET', '/api/v1/data/portfolio', keys.full)).json();
    expect(portfolio.data.venues.map((v: any) => v.protocol)).toEqual(['paper-perps', 'paper-equities']);
    expect(portfolio.data.balances.map((b: any) => b.token)).not.toContain('scripted');
    const gql = await call(gw, 'POST', '/graphql', keys.full, { query: '{ positions { data { venues { protocol account available { token amount } } } } }' });
    expect((await gql.json()).data.positions.data.venues[0]).toEqual({
      protocol: 'paper-perps',
      account: 'scripted',
      available: [{ token: 'USDC', amount: '1000000' }],
    });
  });
});

describe('what the venue says, and what it does not', () => {
  it('a refusal is the matching public code with the venue’s reason; nothing was placed, the execution is rejected', async () => {
    venue.refuseNext('INSUFFICIENT_BALANCE', 'Insufficient margin to place order. asset=0');
    const { status, body } = await execute(limit('refused-1'));
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { venueReason: 'Insufficient margin to place order. asset=0', venue: 'paper-perps' } });
    const e = await (await call(gw, 'GET', '/api/v1/execute/references/refused-1', keys.full)).json();
    expect(e).toMatchObject({ state: 'rejected', executionId: body.details.executionId });
    venue.refuseNext('VENUE_UNHEALTHY', '429 Too Many Requests', 7);
    const limited = await execute(limit('refused-2'));
    expect(limited.status).toBe(503);
    expect(limited.body).toMatchObject({ code: 'VENUE_UNHEALTHY', retryable: true, retryAfter: 7 });
  });

  it('no answer after sending: unknown, then the reconciler finds the order by its client order id; a retry never places twice', async () => {
    venue.noAnswerNext('placed');
    const { status, body } = await execute(limit('lost-answer'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ state: 'unknown' });
    const placedBefore = venue.placed.filter((c) => c === body.order.clientOrderId).length;
    // The same body again replays the execution: it is not sent a second time.
    const replay = await call(gw, 'POST', '/api/v1/execute', keys.full, limit('lost-answer'));
    expect((await replay.json()).executionId).toBe(body.executionId);
    expect(venue.placed.filter((c) => c === body.order.clientOrderId).length).toBe(placedBefore);
    await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
    expect(await read(body.executionId)).toMatchObject({ state: 'open', order: { resting: true } });
  });

  it('an order the venue never saw stays unknown until it cannot land any more, then failed', async () => {
    venue.noAnswerNext('lost');
    const { body } = await execute(limit('never-seen'));
    expect(body.state).toBe('unknown');
    await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
    expect((await read(body.executionId)).state).toBe('unknown');
    gw.clock.advance(ROUTED_UNSEEN_MS + 1_000);
    await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
    expect(await read(body.executionId)).toMatchObject({ state: 'failed', fill: null });
    await gw.app.services.ingest.pollAll(); // fresh data again after the clock moved
  });

  it('while the venue’s stream is down, resting orders are looked up instead: an update is never lost', async () => {
    const { body } = await execute(limit('stream-down'));
    expect(body.state, JSON.stringify(body)).toBe('open');
    venue.alive = false;
    try {
      venue.fillOrder(body.order.clientOrderId); // not streamed: the stream is down
      expect((await read(body.executionId)).state).toBe('open');
      await gw.app.services.execution.orders.pollResting(false);
      expect(await read(body.executionId)).toMatchObject({ state: 'filled', order: { resting: false } });
    } finally {
      venue.alive = true;
    }
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
