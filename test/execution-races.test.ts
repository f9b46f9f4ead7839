import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from './support/wallet.js';

let gw: TestGateway;
let keys: BootstrapKeys;
let wallet: string;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN, rateLimits: { publicPerMinute: 10_000, keyPerMinute: 10_000 } }, SESSION_TIME);
  wallet = await walletSession(gw);
  const session = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
    apiKeyId: 'k-full',
    protocols: ['paper-perps'],
    actions: ['place_order'],
    assets: ['BTC', 'ETH'],
    maxOrderNotional: '1000000',
    maxPeriodNotional: '10000000',
    periodSeconds: 3600,
    expiresAt: new Date(SESSION_TIME + 3_600_000).toISOString(),
  });
  expect(session.status).toBe(200);
});
afterAll(() => gw.close());

const usdc = async (): Promise<string> =>
  (await (await call(gw, 'GET', '/api/v1/data/portfolio', keys.full)).json()).data.balances.find((b: { token: string }) => b.token === 'USDC').amount;

describe('races', () => {
  it('50 concurrent executes with one referenceId give one execution, debited once', async () => {
    const order = perpOrder('race-ref', { assetIn: { token: 'ETH', amount: '1' } });
    expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    const before = await usdc();
    const results = await Promise.all(Array.from({ length: 50 }, () => call(gw, 'POST', '/api/v1/execute', keys.full, order)));
    const bodies = await Promise.all(results.map((r) => r.json()));
    const ids = new Set(bodies.filter((b) => b.executionId).map((b) => b.executionId));
    expect(ids.size).toBe(1);
    const fresh = results.filter((r, i) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true' && bodies[i].executionId);
    expect(fresh).toHaveLength(1);
    for (const [i, r] of results.entries()) {
      if (r.status !== 200) expect([r.status, bodies[i].code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    }
    const spent = Number(before) - Number(await usdc());
    const one = bodies.find((b) => b.executionId);
    expect(spent).toBeCloseTo(Number(one.fill.notional) + Number(one.fill.fee), 2);
  });

  it('50 concurrent submits of one approval give one execution; the approval is consumed once', async () => {
    const order = perpOrder('race-approval');
    await call(gw, 'POST', '/api/v1/execute/preview', wallet, order);
    const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', wallet, order)).json();
    const req = approval.approveRequest;
    const signed = await signedMessage(gw, { statement: req.statement, resources: req.resources });
    expect((await call(gw, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, wallet, { decision: 'approve', ...signed })).status).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call(gw, 'POST', '/api/v1/execute', wallet, { ...order, approvalId: approval.approvalId })),
    );
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(new Set(bodies.filter((b) => b.executionId).map((b) => b.executionId)).size).toBe(1);
    const consumed = await (await call(gw, 'GET', `/api/v1/execute/approvals/${approval.approvalId}`, wallet)).json();
    expect(consumed.state).toBe('consumed');
  });

  it('the approval store consumes an approval exactly once under concurrent calls', async () => {
    const { approvals } = gw.app.stores.execution;
    const now = gw.clock.now();
    await approvals.create({
      id: 'apr_race',
      accountId: 'acct-1',
      wallet: TEST_WALLET.address,
      instructionHash: 'h',
      instruction: {},
      state: 'approved',
      createdAt: now,
      expiresAt: now + 60_000,
      decidedAt: now,
      consumedAt: null,
      executionId: null,
    });
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => approvals.consume('apr_race', 'h', `exe_${i}`, now)));
    expect(outcomes.filter((o) => o === 'consumed')).toHaveLength(1);
    expect(new Set(outcomes.filter((o) => o !== 'consumed'))).toEqual(new Set(['already_consumed']));
  });

  it('a consumed approval is refused for any other instruction (a replay under a new referenceId)', async () => {
    const order = perpOrder('race-replay');
    await call(gw, 'POST', '/api/v1/execute/preview', wallet, order);
    const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', wallet, order)).json();
    const signed = await signedMessage(gw, { statement: approval.approveRequest.statement, resources: approval.approveRequest.resources });
    await call(gw, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, wallet, { decision: 'approve', ...signed });
    expect((await call(gw, 'POST', '/api/v1/execute', wallet, { ...order, approvalId: approval.approvalId })).status).toBe(200);
    const replay = perpOrder('race-replay-2');
    await call(gw, 'POST', '/api/v1/execute/preview', wallet, replay);
    const res = await call(gw, 'POST', '/api/v1/execute', wallet, { ...replay, approvalId: approval.approvalId });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('POLICY_DENIED');
  });
});

describe('races the gates cannot see alone', () => {
  it('concurrent borrows under different referenceIds never take the account past 75 % LTV', async () => {
    const lending = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
      apiKeyId: 'k-full',
      protocols: ['paper-lending'],
      actions: ['supply', 'borrow'],
      assets: ['USDC'],
      maxOrderNotional: '1000000',
      maxPeriodNotional: '10000000',
      periodSeconds: 3600,
      expiresAt: new Date(SESSION_TIME + 3_600_000).toISOString(),
    });
    expect(lending.status).toBe(200);
    const supply = { protocol: 'paper-lending', action: 'supply', assetIn: { token: 'USDC', amount: '10000' }, referenceId: 'ltv-supply' };
    await call(gw, 'POST', '/api/v1/execute/preview', keys.full, supply);
    expect((await (await call(gw, 'POST', '/api/v1/execute', keys.full, supply)).json()).state).toBe('filled');
    const borrows = Array.from({ length: 8 }, (_, i) => ({
      protocol: 'paper-lending',
      action: 'borrow',
      assetIn: { token: 'USDC', amount: '7000' },
      referenceId: `ltv-borrow-${i}`,
    }));
    for (const b of borrows) expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, b)).status).toBe(200);
    const results = await Promise.all(borrows.map((b) => call(gw, 'POST', '/api/v1/execute', keys.full, b).then((r) => r.json())));
    expect(results.filter((r) => r.state === 'filled').length).toBeLessThanOrEqual(1);
    const balances = (await (await call(gw, 'GET', '/api/v1/data/portfolio', keys.full)).json()).data.balances;
    const of = (token: string) => Number(balances.find((b: { token: string }) => b.token === token)?.amount ?? 0);
    expect(of('borrowed:USDC')).toBeLessThanOrEqual(0.75 * of('supplied:USDC'));
  });

  it('an API key cannot submit an approval: approvals are the wallet path', async () => {
    const order = perpOrder('race-key-approval');
    await call(gw, 'POST', '/api/v1/execute/preview', wallet, order);
    const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', wallet, order)).json();
    const signed = await signedMessage(gw, { statement: approval.approveRequest.statement, resources: approval.approveRequest.resources });
    await call(gw, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, wallet, { decision: 'approve', ...signed });
    await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
    const res = await call(gw, 'POST', '/api/v1/execute', keys.full, { ...order, approvalId: approval.approvalId });
    expect(res.status).toBe(403);
    expect((await res.json()).details.check).toBe('approval');
  });
});
