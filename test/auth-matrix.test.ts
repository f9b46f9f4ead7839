import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../src/auth/api-key-secret.js';
import { AGENT_ROUTES, DATA_ROUTES, PUBLIC_ROUTES, ROUTES } from '../src/contract/route-registry.js';

/** Reads any key (with the route's scope) may make. */
const AUTHENTICATED_ROUTES = [...DATA_ROUTES, ...AGENT_ROUTES.filter((r) => r.method === 'GET')];
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';

let gw: TestGateway;
let keys: BootstrapKeys;
const OPERATOR_TOKEN = 'operator-token-for-the-auth-matrix-01';

beforeAll(async () => {
  keys = writeBootstrap();
  gw = await startGateway({ bootstrapPath: keys.path, operatorToken: OPERATOR_TOKEN });
});
afterAll(() => gw.close());

const pathOf = (path: string) => path.replace('{asset}', 'BTC').replace('{protocol}', 'paper-perps');

/** GraphQL selections for each authenticated route's field, with the arguments the REST example uses. */
const GRAPHQL_CALL: Record<string, string> = {
  'Query.perpPrice': '{ perpPrice(asset: "BTC") { data { price } } }',
  'Query.perpFunding': '{ perpFunding(asset: "BTC") { data { fundingRate } } }',
  'Query.perpFundingHistory': '{ perpFundingHistory(asset: "BTC") { data { entries { rate } } } }',
  'Query.dataOrderBook': '{ dataOrderBook(asset: "BTC") { data { depth } } }',
  'Query.lendingYield': '{ lendingYield(asset: "USDC") { data { supplyApy } } }',
  'Query.portfolio': '{ portfolio { data { accountId } } }',
  'Query.positions': '{ positions { data { loanToValue } } }',
  'Query.protocolIntelligence': '{ protocolIntelligence(protocol: "paper-perps") { data { marketCount } } }',
  'Query.capabilities': '{ capabilities { data { keyId } } }',
  'Query.workflowNodes': '{ workflowNodes { data { nodes { id } } } }',
  'Query.contractOpenApi': '{ contractOpenApi }',
  'Query.agentSessions': '{ agentSessions { id } }',
};

const restExample = (path: string) => pathOf(path).replace('/lending/yield/BTC', '/lending/yield/USDC');

const MATRIX: [string, Record<string, string>, string][] = [
  ['missing', {}, 'missing'],
  ['empty', { authorization: '' }, 'empty'],
  ['bearer without token', { authorization: 'Bearer ' }, 'empty'],
  ['wrong scheme', { authorization: 'Basic dXNlcjpwYXNz' }, 'scheme'],
  ['malformed', { authorization: 'Bearer not a key!' }, 'malformed'],
  ['unknown', { authorization: `Bearer ${newApiKey()}` }, 'invalid'],
  ['oversized header', { authorization: `Bearer ${'a'.repeat(600)}` }, 'oversized'],
];

describe.each(AUTHENTICATED_ROUTES.map((r) => [r.operationId, r] as const))('REST %s', (_name, route) => {
  const path = restExample(route.path);

  it.each(MATRIX)('%s key: 401 naming the problem', async (_case, headers, reason) => {
    const res = await gw.get(path, { headers });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'Unauthorized', code: 'unauthenticated', details: { reason }, retryable: false });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('revoked key: 401, worded exactly like an unknown key', async () => {
    const revoked = await (await gw.get(path, { headers: bearer(keys.revoked) })).json();
    const unknown = await (await gw.get(path, { headers: bearer(newApiKey()) })).json();
    expect(revoked.message).toBe(unknown.message);
    expect(revoked.details).toEqual(unknown.details);
  });

  it('a key with the scope: 200', async () => {
    const res = await gw.get(path, { headers: bearer(keys.readOnly) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe.each(AUTHENTICATED_ROUTES.filter((r) => r.scopes.length > 0).map((r) => [r.operationId, r] as const))(
  'REST %s with an unscoped key',
  (_name, route) => {
    it('is 401 insufficient_scope naming the scope', async () => {
      const res = await gw.get(restExample(route.path), { headers: bearer(keys.previewOnly) });
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toMatchObject({ code: 'insufficient_scope', details: { requiredScope: route.scopes[0] } });
    });
  },
);

describe('GraphQL parity over HTTP', () => {
  const gql = async (query: string, headers: Record<string, string> = {}) =>
    (await gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) })).json();

  it.each(AUTHENTICATED_ROUTES.map((r) => [r.field, r] as const))('%s refuses anonymous and unscoped calls, and answers a scoped key', async (field, route) => {
    const query = GRAPHQL_CALL[field]!;
    const anonymous = await gql(query);
    expect(anonymous.data).toBeNull();
    expect(anonymous.errors[0].extensions.code).toBe('unauthenticated');
    const revoked = await gql(query, bearer(keys.revoked));
    expect(revoked.errors[0].extensions.code).toBe('unauthenticated');
    if (route.scopes.length > 0) {
      const unscoped = await gql(query, bearer(keys.previewOnly));
      expect(unscoped.errors[0].extensions.code).toBe('insufficient_scope');
    }
    const ok = await gql(query, bearer(keys.readOnly));
    expect(ok.errors).toBeUndefined();
  });

  it('introspection shows no root field outside the registry: nothing reachable bypasses a gate', async () => {
    // As the operator, who sees every field (others see the schema without the operator's).
    const body = await gql('{ __schema { queryType { fields { name } } mutationType { fields { name } } subscriptionType { fields { name } } } }', {
      authorization: `Bearer ${OPERATOR_TOKEN}`,
    });
    const registered = (type: string) =>
      ROUTES.filter((r) => r.field.startsWith(`${type}.`))
        .map((r) => r.field.split('.')[1])
        .sort();
    const names = (t: { fields: { name: string }[] }) => t.fields.map((f) => f.name).sort();
    // Graph-only root fields (no route; GRAPH_ONLY keeps them out of Sofa), listed one by one.
    const graphOnly = ['marketGraph', 'viewer'];
    expect(names(body.data.__schema.queryType)).toEqual([...registered('Query'), ...graphOnly].sort());
    const graph = await gql('{ marketGraph(windowDays: 3) { data { windowDays } } }');
    expect(graph.errors).toBeUndefined();
    expect(names(body.data.__schema.mutationType)).toEqual(registered('Mutation'));
    expect(names(body.data.__schema.subscriptionType)).toEqual([
      'approvalUpdated',
      'executionUpdated',
      'freshnessChanged',
      'marketUpdated',
      'orderBookUpdated',
    ]);
    expect(PUBLIC_ROUTES.every((r) => r.scopes.length === 0)).toBe(true);
  });
});

describe('GraphQL parity over graphql-ws', () => {
  const url = () => gw.baseUrl.replace('http', 'ws') + '/graphql';
  const run = (authorization: string | undefined, query: string) =>
    new Promise<any>((resolve, reject) => {
      const client = createClient({ url: url(), webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: authorization ? { authorization } : undefined });
      client.subscribe(
        { query },
        {
          next: (v) => (resolve(v), void client.dispose()),
          error: (e) => (reject(e), void client.dispose()),
          complete: () => undefined,
        },
      );
    });

  it('refuses an authenticated field on an anonymous socket, and serves it on an authenticated one', async () => {
    const anonymous = await run(undefined, GRAPHQL_CALL['Query.perpPrice']!);
    expect(anonymous.errors[0].extensions.code).toBe('unauthenticated');
    const ok = await run(`Bearer ${keys.readOnly}`, GRAPHQL_CALL['Query.perpPrice']!);
    expect(ok.data.perpPrice.data.price).toMatch(/^\d/);
    const unscoped = await run(`Bearer ${keys.previewOnly}`, GRAPHQL_CALL['Query.portfolio']!);
    expect(unscoped.errors[0].extensions.code).toBe('insufficient_scope');
  });

  it('checks the credential again for every operation: a key revoked while its socket is open stops working', async () => {
    const { createClient: create } = await import('graphql-ws');
    const { sha256Hex } = await import('../src/auth/api-key-secret.js');
    const { issueApiKey } = await import('../src/auth/key-issuer.js');
    const { secret, record } = await issueApiKey(gw.app.stores.identities, 'acct-1', ['data:read'], 'socket', new Date().toISOString());
    expect(record.sha256).toBe(sha256Hex(secret));
    // lazy: false keeps the one socket open across both operations.
    const client = create({ url: url(), webSocketImpl: WebSocket, retryAttempts: 0, lazy: false, connectionParams: { authorization: `Bearer ${secret}` } });
    const once = () =>
      new Promise<any>((resolve, reject) =>
        client.subscribe({ query: GRAPHQL_CALL['Query.perpPrice']! }, { next: resolve, error: reject, complete: () => undefined }),
      );
    try {
      expect((await once()).data.perpPrice.data.price).toMatch(/^\d/);
      await gw.app.stores.identities.revokeKey(record.id, new Date().toISOString());
      expect((await once()).errors[0].extensions.code).toBe('unauthenticated');
    } finally {
      await client.dispose();
    }
  });

  it('closes a socket that presents an invalid key at connection', async () => {
    await expect(run(`Bearer ${keys.revoked}`, '{ status { freshness { stale } } }')).rejects.toMatchObject({ code: 4403 });
  });
});
