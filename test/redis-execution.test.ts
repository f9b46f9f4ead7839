import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, perpOrder, btcPerpSession } from './support/execution.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { PrivateRedis, redisServerForSuites, uniquePrefix } from './support/redis.js';
import { eventually, Replica } from './support/replicas.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * The execution plane on two gateway processes sharing one Redis of the test's own, started with
 * append-only persistence: one winner per referenceId across replicas, approvals and executions
 * that survive a Redis restart, and execution that fails closed while Redis is away.
 */
const canRun = redisServerForSuites();
const OPERATOR = 'operator-token-for-replica-tests-0123';

describe.skipIf(!canRun)('execution across replicas on one Redis', () => {
  let server: PrivateRedis;
  let a: Replica;
  let b: Replica;
  let keys: BootstrapKeys;
  let wallet: string;

  beforeAll(async () => {
    server = await PrivateRedis.start({ appendonly: true });
    keys = writeBootstrap(TEST_WALLET.address);
    const env = {
      REDIS_URL: server.url,
      REDIS_KEY_PREFIX: uniquePrefix('exec'),
      GATEWAY_BOOTSTRAP: keys.path,
      GATEWAY_SIWE_DOMAIN: SIWE_DOMAIN,
      RATE_LIMIT_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
      INGEST_LEASE_TTL_MS: '1500',
      GATEWAY_OPERATOR_TOKEN: OPERATOR,
    };
    [a, b] = await Promise.all([Replica.start('exec-a', env), Replica.start('exec-b', env)]);
    wallet = await walletSession(a);
    const session = await call(b, 'POST', '/api/v1/agent-sessions', wallet, btcPerpSession());
    expect(session.status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await server?.kill();
  });

  it('an idempotency race across replicas has one winner', async () => {
    const order = perpOrder('x-replica-race', { assetIn: { token: 'BTC', amount: '0.01' } });
    expect((await call(a, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => call(i % 2 ? a : b, 'POST', '/api/v1/execute', keys.full, order)));
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(new Set(bodies.filter((x) => x.executionId).map((x) => x.executionId)).size).toBe(1);
    const fresh = results.filter((r, i) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true' && bodies[i].executionId);
    expect(fresh).toHaveLength(1);
    for (const [i, r] of results.entries()) if (r.status !== 200) expect(bodies[i].code).toBe('IDEMPOTENCY_CONFLICT');
    const seen = await (await call(b, 'GET', '/api/v1/execute/references/x-replica-race', keys.full)).json();
    expect(seen.executionId).toBe(bodies.find((x) => x.executionId).executionId);
  }, 30_000);

  it('an approval created on one replica is decided and consumed on the other; it survives a Redis restart', async () => {
    const order = perpOrder('x-durable', { assetIn: { token: 'BTC', amount: '0.01' } });
    expect((await call(a, 'POST', '/api/v1/execute/preview', wallet, order)).status).toBe(200);
    const approval = await (await call(a, 'POST', '/api/v1/execute/approvals', wallet, order)).json();
    const signed = await signedMessage(b, { statement: approval.approveRequest.statement, resources: approval.approveRequest.resources });
    expect((await call(b, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, wallet, { decision: 'approve', ...signed })).status).toBe(200);
    const executed = await (await call(a, 'POST', '/api/v1/execute', wallet, { ...order, approvalId: approval.approvalId })).json();
    expect(executed.state).toBe('filled');
    const pending = await (await call(b, 'POST', '/api/v1/execute/approvals', wallet, order)).json();

    await server.kill();
    await server.start();
    await eventually(
      'both replicas reconnect',
      async () => (await a.status()).body.data.sharedState.connected && (await b.status()).body.data.sharedState.connected,
      20_000,
    );

    const consumed = await (await call(b, 'GET', `/api/v1/execute/approvals/${approval.approvalId}`, wallet)).json();
    expect(consumed).toMatchObject({ state: 'consumed', executionId: executed.executionId });
    expect((await (await call(b, 'GET', `/api/v1/execute/approvals/${pending.approvalId}`, wallet)).json()).state).toBe('pending');
    const byRef = await (await call(a, 'GET', '/api/v1/execute/references/x-durable', wallet)).json();
    expect(byRef).toMatchObject({ executionId: executed.executionId, state: 'filled' });
    const audit = await (await call(b, 'GET', '/api/v1/audit?limit=1000', wallet)).json();
    expect(audit.chainValid).toBe(true);
    expect(audit.entries.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['approval_created', 'approval_decided', 'execution']));
  }, 60_000);

  it('an operator kill switch on one replica stops execution on the other, and its release applies to both', async () => {
    const order = perpOrder('x-kill', { assetIn: { token: 'BTC', amount: '0.01' } });
    expect((await call(a, 'PATCH', '/api/v1/operator/controls', OPERATOR, { killSwitch: true, reason: 'fleet drill' })).status).toBe(200);
    await eventually(
      'replica B sees the kill switch',
      async () => (await (await call(b, 'GET', '/api/v1/operator/controls', OPERATOR)).json()).killSwitchEngaged,
      5_000,
    );
    expect((await call(b, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    const refused = await call(b, 'POST', '/api/v1/execute', keys.full, order);
    expect([refused.status, (await refused.json()).details.check]).toEqual([503, 'kill_switch']);
    expect((await call(b, 'PATCH', '/api/v1/operator/controls', OPERATOR, { killSwitch: false })).status).toBe(200);
    await eventually(
      'replica A sees the release',
      async () => !(await (await call(a, 'GET', '/api/v1/operator/controls', OPERATOR)).json()).killSwitchEngaged,
      5_000,
    );
    expect((await call(a, 'POST', '/api/v1/execute', keys.full, order)).status).toBe(200);
  }, 30_000);

  it('fails closed with POLICY_UNAVAILABLE while Redis is unreachable, and executes again once it is back', async () => {
    const order = perpOrder('x-outage', { assetIn: { token: 'BTC', amount: '0.01' } });
    expect((await call(a, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    await server.kill();
    const res = await call(a, 'POST', '/api/v1/execute', keys.full, order);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'POLICY_UNAVAILABLE', retryable: true });
    expect(a.alive && b.alive).toBe(true);
    await server.start();
    await eventually('replica A reconnects', async () => (await a.status()).body.data.sharedState.connected, 20_000);
    expect((await call(a, 'GET', '/api/v1/execute/references/x-outage', keys.full)).status).toBe(404);
    expect((await call(a, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    const after = await call(a, 'POST', '/api/v1/execute', keys.full, order);
    expect([after.status, (await after.json()).state]).toEqual([200, 'filled']);
  }, 60_000);
});
