import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from './support/wallet.js';

/** Account views through real HTTP: portfolio valuation, positions, and the paged execution and approval lists. */
let gw: TestGateway;
let keys: BootstrapKeys;
let wallet: string;

async function agentSession() {
  const res = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
    apiKeyId: 'k-full',
    protocols: ['paper-perps', 'paper-lending'],
    actions: ['place_order', 'supply', 'borrow'],
    assets: ['BTC', 'ETH', 'USDC', 'WETH'],
    maxOrderNotional: '20000',
    maxPeriodNotional: '100000',
    periodSeconds: 86_400,
    expiresAt: new Date(gw.clock.now() + 30 * 86_400_000).toISOString(),
  });
  expect(res.status).toBe(200);
}

async function execute(order: Record<string, unknown>) {
  expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
  const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function createApproval(referenceId: string) {
  gw.clock.advance(1000);
  expect((await call(gw, 'POST', '/api/v1/execute/preview', wallet, perpOrder(referenceId))).status).toBe(200);
  const res = await call(gw, 'POST', '/api/v1/execute/approvals', wallet, perpOrder(referenceId));
  expect(res.status).toBe(200);
  return res.json();
}

const read = async (path: string, key = keys.readOnly) => {
  const res = await call(gw, 'GET', path, key);
  return { status: res.status, body: await res.json() };
};

beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
  wallet = await walletSession(gw);
  await agentSession();
});
afterAll(() => gw.close());

describe('portfolio and positions', () => {
  it('a 0.15 BTC perp buy moves the portfolio total only by its fee and the unrealised PnL', async () => {
    const before = (await read('/api/v1/data/portfolio')).body.data;
    const execution = await execute(perpOrder('acct-perp-1', { assetIn: { token: 'BTC', amount: '0.15' } }));
    const after = (await read('/api/v1/data/portfolio')).body.data;
    const { body: positions } = await read('/api/v1/data/positions');
    const perp = positions.data.perps.find((p: any) => p.marketId === 'BTC-PERP');
    expect(perp, JSON.stringify({ perp, fill: execution.fill })).toMatchObject({ side: 'long', size: '0.15', stale: false, leverage: '1.00' });
    // The entry is the exact average fill (the fill's price and notional are rounded for display).
    expect(new Decimal(perp.entryPrice).minus(execution.fill.price).abs().lte('0.1')).toBe(true);
    const mark = (await read('/api/v1/data/perps/price/BTC')).body.data.price;
    expect(perp.markPrice).toBe(mark);
    const pnl = new Decimal('0.15').mul(mark).minus(execution.fill.notional);
    expect(new Decimal(perp.unrealizedPnlUsd).minus(pnl).abs().lte('0.02')).toBe(true);
    expect(perp.marginUsd).toBe(new Decimal(execution.fill.notional).toFixed(2));
    // At 1x the margin covers the whole notional: equity never meets the maintenance margin.
    expect(perp.liquidationPrice).toBeNull();
    const moved = new Decimal(after.totalValueUsd).minus(before.totalValueUsd);
    const expected = pnl.minus(execution.fill.fee);
    expect(moved.minus(expected).abs().lte('0.02'), `moved ${moved}, fee and PnL ${expected}`).toBe(true);
    console.log(
      `portfolio before ${before.totalValueUsd}, after a 0.15 BTC perp buy ${after.totalValueUsd} (fee ${execution.fill.fee}, uPnL ${pnl.toFixed(2)})`,
    );
  });

  it('a 5x short has its liquidation price where equity meets the 0.5 % maintenance margin', async () => {
    const execution = await execute(
      perpOrder('acct-short-1', { assetIn: { token: 'ETH', amount: '1' }, metadata: { side: 'sell', type: 'market', leverage: 5 } }),
    );
    const perp = (await read('/api/v1/data/positions')).body.data.perps.find((p: any) => p.marketId === 'ETH-PERP');
    expect(perp).toMatchObject({ side: 'short', size: '1', marginUsd: new Decimal(execution.fill.notional).div(5).toFixed(2) });
    // size −1: P = (−entry − margin) / (−1 × 1.005), about entry × 1.2 / 1.005.
    const entry = new Decimal(perp.entryPrice);
    const liq = entry.neg().minus(perp.marginUsd).div('-1.005');
    expect(new Decimal(perp.liquidationPrice).minus(liq).abs().lte('0.05')).toBe(true);
    expect(Number(perp.liquidationPrice)).toBeGreaterThan(Number(perp.entryPrice));
  });

  it('lending positions carry supplied, borrowed, accrued interest and LTV; a stale mark says so', async () => {
    await execute({ protocol: 'paper-lending', action: 'supply', assetIn: { token: 'USDC', amount: '10000' }, referenceId: 'acct-supply-1' });
    gw.clock.advance(1000);
    await execute({ protocol: 'paper-lending', action: 'borrow', assetIn: { token: 'WETH', amount: '0.5' }, referenceId: 'acct-borrow-1' });
    gw.clock.advance(86_400_000);
    await gw.app.services.ingest.pollAll();
    const { body } = await read('/api/v1/data/positions');
    const usdc = body.data.lending.find((l: any) => l.asset === 'USDC');
    const weth = body.data.lending.find((l: any) => l.asset === 'WETH');
    expect(usdc).toMatchObject({ supplied: '10000', borrowed: '0' });
    expect(weth).toMatchObject({ supplied: '0', borrowed: '0.5' });
    expect(Number(usdc.accruedSupplyInterest)).toBeGreaterThan(0);
    expect(Number(weth.accruedBorrowInterest)).toBeGreaterThan(0);
    const ltv = new Decimal('0.5').mul(weth.priceUsd).div('10000');
    expect(body.data.loanToValue).toBe(ltv.toFixed(4));
    gw.clock.advance(120_000);
    const stale = (await read('/api/v1/data/positions')).body;
    expect(stale.freshness.stale).toBe(true);
    expect(stale.data.perps[0].stale).toBe(true);
    await gw.app.services.ingest.pollAll();
    wallet = await walletSession(gw);
  });
});

describe('GET /api/v1/execute/executions and /api/v1/execute/approvals', () => {
  it('pages newest first with signed cursors, and filters by state, protocol, referenceId prefix and time', async () => {
    for (let i = 0; i < 5; i++) {
      gw.clock.advance(1000);
      await execute(perpOrder(`page-${i}`, { assetIn: { token: 'BTC', amount: '0.01' } }));
    }
    const refs: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await read(`/api/v1/execute/executions?limit=2&referenceId=page-${cursor ? `&cursor=${cursor}` : ''}`)).body;
      expect(page.data.executions.length).toBeLessThanOrEqual(2);
      refs.push(...page.data.executions.map((e: any) => e.referenceId));
      cursor = page.data.nextCursor;
    } while (cursor);
    expect(refs).toEqual(['page-4', 'page-3', 'page-2', 'page-1', 'page-0']);
    const lending = (await read('/api/v1/execute/executions?protocol=paper-lending')).body.data.executions;
    expect(lending.map((e: any) => e.action)).toEqual(['borrow', 'supply']);
    const since = new Date(gw.clock.now() - 2500).toISOString();
    const recent = (await read(`/api/v1/execute/executions?from=${encodeURIComponent(since)}`)).body.data.executions;
    expect(recent.map((e: any) => e.referenceId)).toEqual(['page-4', 'page-3', 'page-2']);
    expect((await read('/api/v1/execute/executions?state=rejected')).body.data.executions).toEqual([]);
  });

  it('refuses a forged, altered or foreign cursor with 400, bad filters with 400, and callers without data:read with 401', async () => {
    const first = (await read('/api/v1/execute/executions?limit=1')).body.data;
    const [body, mac] = first.nextCursor.split('.');
    const forged = Buffer.from(JSON.stringify({ l: 'executions', p: { at: 0, id: 'x' } })).toString('base64url');
    for (const bad of [`${forged}.${mac}`, `${body}.${mac.slice(0, -2)}xx`, 'garbage', `${body}`]) {
      const res = await read(`/api/v1/execute/executions?cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    await createApproval('apr-list-0');
    await createApproval('apr-list-1');
    const page = (await read('/api/v1/execute/approvals?limit=1')).body.data;
    expect((await read(`/api/v1/execute/executions?cursor=${page.nextCursor}`)).body.code).toBe('invalid_cursor');
    for (const q of ['limit=0', 'limit=101', 'state=done', 'from=yesterday', 'protocol=']) {
      const res = await read(`/api/v1/execute/executions?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('invalid_list_query');
    }
    expect((await read('/api/v1/execute/executions', keys.previewOnly)).status).toBe(401);
    expect((await call(gw, 'GET', '/api/v1/execute/approvals', undefined)).status).toBe(401);
  });

  it('lists approvals with their state now, filtered', async () => {
    const created = await createApproval('apr-list-2');
    const req = created.approveRequest;
    const signed = await signedMessage(gw, { statement: req.statement, resources: req.resources });
    expect((await call(gw, 'PATCH', `/api/service/ai/approvals/${created.approvalId}`, wallet, { decision: 'approve', ...signed })).status).toBe(200);
    const all = (await read('/api/v1/execute/approvals?referenceId=apr-list-')).body.data.approvals;
    expect(all.map((a: any) => [a.approvalId === created.approvalId ? 'new' : 'old', a.state])).toEqual([
      ['new', 'approved'],
      ['old', 'pending'],
      ['old', 'pending'],
    ]);
    gw.clock.advance(6 * 60_000);
    const expired = (await read('/api/v1/execute/approvals?state=expired&referenceId=apr-list-')).body.data.approvals;
    expect(expired).toHaveLength(3);
    await gw.app.services.ingest.pollAll();
  });
});
