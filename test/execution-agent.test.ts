import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

let gw: TestGateway;
let keys: BootstrapKeys;
let wallet: string;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
  wallet = await walletSession(gw);
});
afterAll(() => gw.close());

const activate = async (overrides: Record<string, unknown> = {}) =>
  call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
    apiKeyId: 'k-full',
    protocols: ['paper-perps'],
    actions: ['place_order'],
    assets: ['BTC'],
    maxOrderNotional: '10000',
    maxPeriodNotional: '15000',
    periodSeconds: 3600,
    expiresAt: new Date(gw.clock.now() + 3_600_000).toISOString(),
    ...overrides,
  });

async function previewAndExecute(order: Record<string, unknown>, key = keys.full) {
  const preview = await call(gw, 'POST', '/api/v1/execute/preview', key, order);
  expect(preview.status).toBe(200);
  return call(gw, 'POST', '/api/v1/execute', key, order);
}

describe('agent flow: an API key executes inside an agent session activated by the wallet', () => {
  it('refuses live execution without a session, and the preview says why', async () => {
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, perpOrder('ag-0'))).json();
    expect(preview.executable).toBe(false);
    expect(preview.gates.find((g: any) => g.gate === 'authority')).toMatchObject({ status: 'block', code: 'POLICY_DENIED' });
    const res = await call(gw, 'POST', '/api/v1/execute', keys.full, perpOrder('ag-0'));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'POLICY_DENIED', details: { gate: 'authority', check: 'agent_session' } });
  });

  it('only a wallet session activates a session, for a key of the account with execute:live', async () => {
    const body = {
      apiKeyId: 'k-full',
      protocols: ['paper-perps'],
      actions: ['place_order'],
      assets: ['BTC'],
      maxOrderNotional: '1',
      maxPeriodNotional: '1',
      periodSeconds: 60,
      expiresAt: new Date(gw.clock.now() + 60_000).toISOString(),
    };
    const byKey = await call(gw, 'POST', '/api/v1/agent-sessions', keys.full, body);
    expect(byKey.status).toBe(401);
    expect((await byKey.json()).code).toBe('wallet_session_required');
    const readOnly = await activate({ apiKeyId: 'k-read' });
    expect(readOnly.status).toBe(400);
    expect((await readOnly.json()).message).toMatch(/execute:live/);
    expect((await activate({ protocols: ['paper-otc'] })).status).toBe(400);
    expect((await activate({ maxOrderNotional: '20000' })).status).toBe(400);
    expect((await activate({ expiresAt: new Date(gw.clock.now() - 1).toISOString() })).status).toBe(400);
  });

  it('executes within the session, enforcing asset, per-order and per-period caps', async () => {
    const session = await (await activate()).json();
    expect(session).toMatchObject({ apiKeyId: 'k-full', active: true, assets: ['BTC'] });
    const caps = await (await call(gw, 'GET', '/api/v1/capabilities', keys.full)).json();
    const place = caps.data.protocols[0].actions.find((a: any) => a.action === 'place_order');
    expect(place.allowed.live).toBe(true);

    const first = await previewAndExecute(perpOrder('ag-1'));
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ state: 'filled', agentSessionId: session.id, principalKind: 'api_key' });

    const eth = await previewAndExecute(perpOrder('ag-eth', { assetIn: { token: 'ETH', amount: '1' } }));
    expect(await eth.json()).toMatchObject({ code: 'POLICY_DENIED', details: { check: 'agent_session' } });

    const big = await previewAndExecute(perpOrder('ag-big', { assetIn: { token: 'BTC', amount: '0.5' } }));
    expect(await big.json()).toMatchObject({ code: 'POLICY_DENIED', details: { check: 'order_cap' } });

    expect((await previewAndExecute(perpOrder('ag-2'))).status).toBe(200);
    const third = await previewAndExecute(perpOrder('ag-3'));
    expect(third.status).toBe(403);
    expect(await third.json()).toMatchObject({ code: 'POLICY_DENIED', details: { check: 'period_cap' } });
    // A refused order leaves its referenceId free.
    expect((await call(gw, 'GET', '/api/v1/execute/references/ag-3', keys.full)).status).toBe(404);
  });

  it('a revoked session stops the next order at once; sessions are listable', async () => {
    const session = await (await activate({ assets: ['SOL'], maxOrderNotional: '5000', maxPeriodNotional: '50000' })).json();
    const order = perpOrder('ag-sol', { assetIn: { token: 'SOL', amount: '1' } });
    expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    const listed = await (await call(gw, 'GET', '/api/v1/agent-sessions', keys.full)).json();
    expect(listed.map((s: any) => s.id)).toContain(session.id);
    expect((await call(gw, 'DELETE', `/api/v1/agent-sessions/${session.id}`, wallet)).status).toBe(200);
    const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
    expect(res.status).toBe(403);
    expect((await res.json()).details.check).toBe('agent_session');
  });

  it('a session outside its window does not authorise', async () => {
    const future = await (
      await activate({
        assets: ['ETH'],
        startsAt: new Date(gw.clock.now() + 600_000).toISOString(),
        expiresAt: new Date(gw.clock.now() + 1_200_000).toISOString(),
      })
    ).json();
    expect(future.active).toBe(false);
    const res = await previewAndExecute(perpOrder('ag-future', { assetIn: { token: 'ETH', amount: '0.1' } }));
    expect((await res.json()).details.check).toBe('agent_session');
  });

  it('the user revokes an API key with the wallet: the key is refused on its next request', async () => {
    const res = await call(gw, 'DELETE', '/api/v1/keys/k-read', wallet);
    expect(res.status).toBe(200);
    expect((await call(gw, 'GET', '/api/v1/data/portfolio', keys.readOnly)).status).toBe(401);
    expect((await call(gw, 'DELETE', '/api/v1/keys/k-nope', wallet)).status).toBe(404);
  });

  it('signing out ends every wallet session of the account at once', async () => {
    const other = await walletSession(gw);
    expect((await call(gw, 'DELETE', '/api/v1/auth/session', other)).status).toBe(200);
    for (const token of [other, wallet]) expect((await call(gw, 'GET', '/api/v1/agent-sessions', token)).status).toBe(401);
    wallet = await walletSession(gw);
    expect((await call(gw, 'GET', '/api/v1/agent-sessions', wallet)).status).toBe(200);
  });

  it('GraphQL cannot do what REST refuses', async () => {
    const gql = (key: string | undefined, query: string) => call(gw, 'POST', '/graphql', key, { query }).then((r) => r.json());
    const mutation = `mutation { execute(protocol: "paper-perps", action: "place_order", assetIn: {token: "ETH", amount: "0.1"}, metadata: {side: "buy", type: "market"}, referenceId: "gql-1") { state } }`;
    expect((await gql(undefined, mutation)).errors[0].extensions.code).toBe('unauthenticated');
    expect((await gql(keys.previewOnly, mutation)).errors[0].extensions.code).toBe('insufficient_scope');
    const rest = await call(gw, 'POST', '/api/v1/execute', keys.full, perpOrder('gql-1', { assetIn: { token: 'ETH', amount: '0.1' } }));
    expect((await rest.json()).code).toBe('POLICY_DENIED');
    const preview = `mutation { previewExecution(protocol: "paper-perps", action: "place_order", assetIn: {token: "ETH", amount: "0.1"}, metadata: {side: "buy", type: "market"}, referenceId: "gql-1") { executable } }`;
    expect((await gql(keys.full, preview)).data.previewExecution.executable).toBe(false);
    expect((await gql(keys.full, mutation)).errors[0].extensions.code).toBe('POLICY_DENIED');
    expect(
      (
        await gql(
          keys.full,
          'mutation { createApproval(protocol: "paper-perps", action: "place_order", assetIn: {token: "ETH", amount: "0.1"}, referenceId: "x") { state } }',
        )
      ).errors[0].extensions.code,
    ).toBe('wallet_session_required');
  });
});
