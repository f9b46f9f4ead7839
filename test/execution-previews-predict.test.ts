import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../src/domain/decimal.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * Issue 9, previews that predict: the preview's verdict meets what the submission meets (the
 * session's period cap with the spend as of now, the venue's fill simulation), and a quote that
 * expired says so, with when, while an approval given on a fresh preview keeps its bound.
 */
let gw: TestGateway;
let keys: BootstrapKeys;
let wallet: string;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
  wallet = await walletSession(gw);
});
afterAll(() => gw.close());

const preview = async (order: Record<string, unknown>, token = keys.full) => (await call(gw, 'POST', '/api/v1/execute/preview', token, order)).json();
const execute = (order: Record<string, unknown>, token = keys.full) => call(gw, 'POST', '/api/v1/execute', token, order);

describe('previews that predict', () => {
  it("says the session's period cap refuses the order when the spend so far plus this order passes it", async () => {
    const small = { assetIn: { token: 'BTC', amount: '0.01' } };
    const first = await preview(perpOrder('pp-cap-1', small));
    const notional = new Decimal(first.quote.notionalUsd);
    const session = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
      apiKeyId: 'k-full',
      protocols: ['paper-perps'],
      actions: ['place_order'],
      assets: ['BTC'],
      maxOrderNotional: notional.mul(1.5).toFixed(2),
      maxPeriodNotional: notional.mul(1.5).toFixed(2),
      periodSeconds: 3600,
      expiresAt: new Date(gw.clock.now() + 3_600_000).toISOString(),
    });
    expect(session.status).toBe(200);
    expect((await preview(perpOrder('pp-cap-2', small))).executable).toBe(true);
    expect((await execute(perpOrder('pp-cap-2', small))).status).toBe(200);

    const next = await preview(perpOrder('pp-cap-3', small));
    expect(next.executable).toBe(false);
    expect(next.gates.find((g: { gate: string }) => g.gate === 'authority')).toMatchObject({
      status: 'block',
      code: 'POLICY_DENIED',
      reason: expect.stringMatching(/per period .* spent/),
    });
    const refused = await execute(perpOrder('pp-cap-3', small));
    expect([refused.status, (await refused.json()).details.check]).toEqual([403, 'period_cap']);
  });

  it('a limit that would not fill previews as not fillable, with 0 expected, and the submission ends as predicted', async () => {
    const order = perpOrder('pp-limit', { assetIn: { token: 'BTC', amount: '0.001' }, metadata: { side: 'buy', type: 'limit', price: '1' } });
    const p = await preview(order);
    expect(p.quote).toMatchObject({ expectedFilledAmount: '0', expectedFillState: 'rejected' });
    expect(p.executable).toBe(false);
    const res = await execute(order);
    expect((await res.json()).state).toBe('rejected');
    const market = perpOrder('pp-market', { assetIn: { token: 'BTC', amount: '0.001' } });
    expect((await preview(market)).quote).toMatchObject({ expectedFilledAmount: '0.001', expectedFillState: 'filled' });
  });

  it('QUOTE_STALE tells "never previewed" from "expired at …"', async () => {
    const never = await execute(perpOrder('pp-never', { assetIn: { token: 'BTC', amount: '0.001' } }));
    expect(await never.json()).toMatchObject({ code: 'QUOTE_STALE', message: expect.stringMatching(/No preview/) });
    const order = perpOrder('pp-expired', { assetIn: { token: 'BTC', amount: '0.001' } });
    const p = await preview(order);
    gw.clock.advance(61_000);
    await gw.app.services.ingest.pollAll();
    const expired = await (await execute(order)).json();
    expect(expired).toMatchObject({ code: 'QUOTE_STALE' });
    expect(expired.message).toContain(`expired at ${p.expiresAt}`);
  });

  it('an approval given on a fresh preview executes after the quote expired, unless the market moved past its bound', async () => {
    const order = perpOrder('pp-bound', { assetIn: { token: 'BTC', amount: '0.001' } });
    expect((await call(gw, 'POST', '/api/v1/execute/preview', wallet, order)).status).toBe(200);
    const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', wallet, order)).json();
    const req = approval.approveRequest;
    const signed = await signedMessage(gw, { statement: req.statement, resources: req.resources });
    expect((await call(gw, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, wallet, { decision: 'approve', ...signed })).status).toBe(200);
    gw.clock.advance(90_000);
    await gw.app.services.ingest.pollAll();
    // The asks move 5% up: beyond the 1% bound the approval carries.
    const { cache } = gw.app.stores;
    const book = (await cache.getOrderBook('BTC-PERP'))!;
    const up = (levels: typeof book.asks) => levels.map((l) => ({ ...l, price: new Decimal(l.price).mul(1.05).toFixed(2) }));
    await cache.putOrderBook({ ...book, asks: up(book.asks), bids: up(book.bids) });
    const moved = await (await call(gw, 'POST', '/api/v1/execute', wallet, { ...order, approvalId: approval.approvalId })).json();
    expect(moved).toMatchObject({ code: 'QUOTE_STALE', message: expect.stringMatching(/approved bound no longer holds: the price is .* by more than 1%/) });
    await gw.app.services.ingest.pollAll();
    const within = await call(gw, 'POST', '/api/v1/execute', wallet, { ...order, approvalId: approval.approvalId });
    expect([within.status, (await within.json()).state]).toEqual([200, 'filled']);
  });
});
