import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

const OPERATOR = 'operator-token-for-tests-0123456789';
let gw: TestGateway;
let keys: BootstrapKeys;
let ref = 0;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN, operatorToken: OPERATOR }, SESSION_TIME);
  const wallet = await walletSession(gw);
  const session = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
    apiKeyId: 'k-full',
    protocols: ['paper-perps', 'paper-equities', 'paper-swap', 'paper-lending'],
    actions: ['place_order', 'set_leverage', 'options_order', 'swap', 'supply', 'borrow'],
    assets: ['BTC', 'ETH', 'AAPL', 'USDC', 'WETH'],
    maxOrderNotional: '10000000',
    maxPeriodNotional: '100000000',
    periodSeconds: 3600,
    expiresAt: new Date(SESSION_TIME + 24 * 3_600_000).toISOString(),
  });
  expect(session.status).toBe(200);
});
afterAll(() => gw.close());
afterEach(async () => {
  await operator({ executionEnabled: true, killSwitch: false, breakerSourceId: 'paper-perps', breakerOpen: false });
});

const operator = (change: Record<string, unknown>) => call(gw, 'PATCH', '/api/v1/operator/controls', OPERATOR, change);
const next = () => `gate-${++ref}`;

/** Previews (when asked) then executes with the agent key; returns status and body. */
async function submit(order: Record<string, unknown>, preview = true) {
  if (preview) await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
  const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
  return { status: res.status, body: await res.json() };
}

describe('each gate code through a real path, with the DESIGN status and nothing executed', () => {
  it('EXECUTION_DISABLED (403) when the operator turns execution off', async () => {
    expect((await operator({ executionEnabled: false })).status).toBe(200);
    const { status, body } = await submit(perpOrder(next()));
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: 'EXECUTION_DISABLED', details: { gate: 'feature_flag' } });
  });

  it('a limit that would rest (gtc, alo) is a 400 on a paper venue, which fills immediate-or-cancel; nothing is recorded', async () => {
    for (const timeInForce of ['gtc', 'alo']) {
      const order = perpOrder(next(), { metadata: { side: 'buy', type: 'limit', price: '60000', timeInForce } });
      for (const path of ['/api/v1/execute/preview', '/api/v1/execute']) {
        const res = await call(gw, 'POST', path, keys.full, order);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'invalid_request', details: { field: 'metadata.timeInForce' } });
      }
      expect((await call(gw, 'GET', `/api/v1/execute/references/${order.referenceId}`, keys.full)).status).toBe(404);
    }
    const ioc = perpOrder(next(), { metadata: { side: 'buy', type: 'limit', price: '60000', timeInForce: 'ioc' } });
    expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, ioc)).status).toBe(200);
  });

  it('ACTION_NOT_CERTIFIED (403) for a partner-required action', async () => {
    const order = { protocol: 'paper-equities', action: 'options_order', assetIn: { token: 'AAPL', amount: '1' }, referenceId: next() };
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).json();
    expect(preview.gates[1]).toMatchObject({ gate: 'certification', status: 'block', code: 'ACTION_NOT_CERTIFIED' });
    expect(preview.gates[5]).toMatchObject({ gate: 'quote', status: 'not_evaluated' });
    const { status, body } = await submit(order, false);
    expect([status, body.code]).toEqual([403, 'ACTION_NOT_CERTIFIED']);
  });

  it('ACTION_CANARY_ONLY (403) for a canary action', async () => {
    const { status, body } = await submit({ ...perpOrder(next()), action: 'set_leverage' });
    expect([status, body.code]).toEqual([403, 'ACTION_CANARY_ONLY']);
  });

  it('VENUE_UNHEALTHY (503) for a down venue, the kill switch, a circuit breaker and a closed market', async () => {
    await gw.setFault('paper-perps', 'down');
    let r = await submit(perpOrder(next()));
    expect([r.status, r.body.code, r.body.details.check]).toEqual([503, 'VENUE_UNHEALTHY', 'venue_health']);
    expect(r.body.retryable).toBe(true);
    await gw.setFault('paper-perps', 'none');

    await operator({ killSwitch: true, reason: 'incident drill' });
    r = await submit(perpOrder(next()));
    expect([r.status, r.body.details.check]).toEqual([503, 'kill_switch']);
    expect(r.body.message).not.toContain('kill_switch');
    await operator({ killSwitch: false });

    await operator({ breakerSourceId: 'paper-perps', breakerOpen: true, reason: 'error burst' });
    r = await submit(perpOrder(next()));
    expect([r.status, r.body.details.check]).toEqual([503, 'circuit_breaker']);
    await operator({ breakerSourceId: 'paper-perps', breakerOpen: false });

    const saturday = Date.parse('2026-11-21T16:00:00Z') - SESSION_TIME;
    gw.clock.advance(saturday);
    await gw.app.services.ingest.pollAll();
    r = await submit({
      protocol: 'paper-equities',
      action: 'place_order',
      assetIn: { token: 'AAPL', amount: '2' },
      metadata: { side: 'buy', type: 'market' },
      referenceId: next(),
    });
    expect([r.status, r.body.code, r.body.details.check]).toEqual([503, 'VENUE_UNHEALTHY', 'market_hours']);
    gw.clock.advance(-saturday);
    await gw.app.services.ingest.pollAll();
  });

  it('VENUE_UNHEALTHY (503) when the data behind the quote is stale, even with a healthy venue: stale data is no execution signal', async () => {
    const order = perpOrder(next());
    gw.clock.advance(5_001); // the order book's 5 s max age passes without a new snapshot
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).json();
    expect(preview.gates[2]).toMatchObject({ gate: 'venue', status: 'block', code: 'VENUE_UNHEALTHY' });
    const stale = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
    expect([stale.status, (await stale.json()).details.check]).toEqual([503, 'market_data_stale']);
    await gw.app.services.ingest.pollAll();
    await call(gw, 'POST', '/api/v1/execute/preview', keys.full, perpOrder(next()));
    gw.clock.advance(55_000); // the market snapshot itself passes 60 s
    const old = await submit(perpOrder(next()), false);
    expect([old.status, old.body.details.check]).toEqual([503, 'market_data_stale']);
    await gw.app.services.ingest.pollAll();
    expect((await submit(perpOrder(next()))).status).toBe(200);
  });

  it('POLICY_UNAVAILABLE (503) when the policy store cannot be read: fail closed, nothing executed', async () => {
    const order = perpOrder(next());
    await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
    const store = gw.app.stores.execution.agentSessions;
    const original = store.list;
    store.list = async () => {
      throw new Error('policy store unreachable');
    };
    try {
      const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'POLICY_UNAVAILABLE', retryable: true });
    } finally {
      store.list = original;
    }
    expect((await call(gw, 'GET', `/api/v1/execute/references/${order.referenceId}`, keys.full)).status).toBe(404);
  });

  it('QUOTE_STALE (409) without a preview, or after it expired', async () => {
    let r = await submit(perpOrder(next()), false);
    expect([r.status, r.body.code]).toEqual([409, 'QUOTE_STALE']);
    const order = perpOrder(next());
    await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
    gw.clock.advance(60_001);
    await gw.app.services.ingest.pollAll();
    r = await submit(order, false);
    expect([r.status, r.body.code]).toEqual([409, 'QUOTE_STALE']);
  });

  it('INSUFFICIENT_BALANCE (403) for an order the ledger cannot cover, and for borrowing without collateral', async () => {
    let r = await submit(perpOrder(next(), { assetIn: { token: 'BTC', amount: '5' } }));
    expect([r.status, r.body.code]).toEqual([403, 'INSUFFICIENT_BALANCE']);
    r = await submit({ protocol: 'paper-lending', action: 'borrow', assetIn: { token: 'USDC', amount: '1000' }, referenceId: next() });
    expect([r.status, r.body.code, r.body.details.check]).toEqual([403, 'INSUFFICIENT_BALANCE', 'collateral']);
  });

  it('IDEMPOTENCY_CONFLICT (409) for a referenceId reused with another body, on preview and on execute', async () => {
    const order = perpOrder(next());
    await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
    const changed = { ...order, assetIn: { token: 'BTC', amount: '0.2' } };
    const preview = await call(gw, 'POST', '/api/v1/execute/preview', keys.full, changed);
    expect([preview.status, (await preview.json()).code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect((await call(gw, 'POST', '/api/v1/execute', keys.full, order)).status).toBe(200);
    // A used referenceId with another instruction is a conflict, not a stale quote (spec: idempotency
    // before policy and approval), and its advice is not to preview again, which would only meet the same conflict.
    const early = await call(gw, 'POST', '/api/v1/execute', keys.full, changed);
    const conflict = await early.json();
    expect([early.status, conflict.code, conflict.retryable, conflict.details.gate]).toEqual([409, 'IDEMPOTENCY_CONFLICT', false, 'idempotency']);
    expect(conflict.nextAction).not.toMatch(/preview/);
    // Once the first preview has expired the changed body can be previewed (which says it will conflict) ...
    gw.clock.advance(61_000);
    await gw.app.services.ingest.pollAll();
    const repreview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, changed)).json();
    expect(repreview.gates.find((g: any) => g.status === 'block')).toMatchObject({ gate: 'idempotency', code: 'IDEMPOTENCY_CONFLICT' });
    // ... and submitted, to meet the same conflict.
    const again = await call(gw, 'POST', '/api/v1/execute', keys.full, changed);
    expect([again.status, (await again.json()).code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
  });

  it('the same preview body replays the same preview, marked', async () => {
    const order = perpOrder(next());
    const first = await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
    const second = await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await second.json()).previewId).toBe((await first.json()).previewId);
  });

  it.each([
    ['protocol', { protocol: 'nope' }],
    ['action', { action: 'teleport' }],
    ['assetIn.amount', { assetIn: { token: 'BTC', amount: '-1' } }],
    ['assetIn.amount', { assetIn: { token: 'BTC', amount: '1e3' } }],
    ['assetIn.token', { assetIn: { token: 'DOGE', amount: '1' } }],
    ['metadata.side', { metadata: { type: 'market' } }],
    ['metadata.price', { metadata: { side: 'buy', type: 'limit' } }],
    ['referenceId', { referenceId: 'has spaces' }],
  ])('bad input names the field (%s) with 400 and leaves nothing behind', async (field, change) => {
    const res = await call(gw, 'POST', '/api/v1/execute/preview', keys.full, { ...perpOrder(next()), ...change });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('invalid_request');
    expect(body.message).toContain(field.split('.').pop());
  });

  it('operator routes need the operator token and are not in the contract', async () => {
    expect((await call(gw, 'GET', '/api/v1/operator/controls', keys.full)).status).toBe(401);
    const controls = await (await call(gw, 'GET', '/api/v1/operator/controls', OPERATOR)).json();
    expect(controls).toMatchObject({ executionEnabled: true, killSwitchEngaged: false });
    const full = await (await call(gw, 'GET', '/api/v1/openapi.json', keys.full)).json();
    expect(Object.keys(full.paths)).not.toContain('/api/v1/operator/controls');
    expect(Object.keys(full.paths)).toContain('/api/service/ai/approvals/{approvalId}');
  });
});

describe('paper venues', () => {
  it('swaps against the pool within the slippage bound and moves both tokens', async () => {
    const order = {
      protocol: 'paper-swap',
      action: 'swap',
      assetIn: { token: 'USDC', amount: '1000' },
      metadata: { tokenOut: 'WETH', slippageBps: 30 },
      referenceId: next(),
    };
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).json();
    expect(Number(preview.quote.minAmountOut)).toBeLessThan(Number(preview.quote.amountOut));
    const { status, body } = await submit(order, false);
    expect([status, body.state]).toEqual([200, 'filled']);
  });

  it('fills a marketable limit order from the book and cancels the rest (immediate-or-cancel)', async () => {
    const book = await (await gw.get('/api/v1/public/markets/ETH/orderbook')).json();
    const limit = book.data.asks[1].price;
    const { body } = await submit(
      perpOrder(next(), { assetIn: { token: 'ETH', amount: '50' }, metadata: { side: 'buy', type: 'limit', price: limit, leverage: 10 } }),
    );
    expect(body.state).toBe('partially_filled');
    expect(Number(body.fill.filledAmount)).toBeLessThan(50);
    const far = await submit(perpOrder(next(), { assetIn: { token: 'ETH', amount: '0.1' }, metadata: { side: 'buy', type: 'limit', price: '1' } }));
    expect(far.body).toMatchObject({ state: 'rejected' });
  });

  it('supplies to lending and then borrows against it', async () => {
    expect((await submit({ protocol: 'paper-lending', action: 'supply', assetIn: { token: 'USDC', amount: '10000' }, referenceId: next() })).body.state).toBe(
      'filled',
    );
    expect((await submit({ protocol: 'paper-lending', action: 'borrow', assetIn: { token: 'USDC', amount: '5000' }, referenceId: next() })).body.state).toBe(
      'filled',
    );
  });
});

describe('controls from GATEWAY_CONTROLS', () => {
  it('start with the configured kill switch, breakers, flags and certifications, reflected in capabilities', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const path = join(mkdtempSync(join(tmpdir(), 'gw-controls-')), 'controls.json');
    writeFileSync(
      path,
      JSON.stringify({
        killSwitch: { engaged: true, reason: 'maintenance window' },
        disabledProtocols: { 'paper-swap': 'pool migration' },
        circuitBreakers: { 'paper-lending': 'oracle check' },
        certifications: [{ protocol: 'paper-perps', action: 'set_leverage', state: 'certified' }],
      }),
    );
    const configured = await startGateway({ bootstrapPath: keys.path, controlsPath: path }, SESSION_TIME);
    try {
      const caps = (await (await call(configured, 'GET', '/api/v1/capabilities', keys.full)).json()).data;
      const action = (p: string, a: string) => caps.protocols.find((x: any) => x.id === p).actions.find((x: any) => x.action === a);
      expect(caps.killSwitchEngaged).toBe(true);
      expect(action('paper-swap', 'swap').blockedBy.map((b: any) => b.gate)).toContain('feature_flag');
      expect(action('paper-lending', 'supply').blockedBy.map((b: any) => b.check)).toContain('kill_switch');
      configured.app.services.controls.releaseKillSwitch();
      const after = (await (await call(configured, 'GET', '/api/v1/capabilities', keys.full)).json()).data;
      const supply = after.protocols.find((x: any) => x.id === 'paper-lending').actions.find((x: any) => x.action === 'supply');
      expect(supply.blockedBy.map((b: any) => b.check)).toContain('circuit_breaker');
      expect(action('paper-perps', 'set_leverage').certification).toBe('certified');
    } finally {
      await configured.close();
    }
    writeFileSync(path, JSON.stringify({ certifications: [{ protocol: 'paper-perps', action: 'nope', state: 'certified' }] }));
    await expect(startGateway({ controlsPath: path })).rejects.toThrow(/certifications\[0\]/);
  });
});
