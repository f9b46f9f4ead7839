import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../src/auth/api-key-secret.js';
import { ROUTES, type RouteSpec } from '../src/contract/route-registry.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';

/** Every non-public registry row: a new route is covered as soon as it is listed. */
const GUARDED = ROUTES.filter((r) => r.visibility !== 'public' && r.security !== 'none');

let gw: TestGateway;
const keys: BootstrapKeys = writeBootstrap();
beforeAll(async () => {
  gw = await startGateway({ bootstrapPath: keys.path, operatorToken: 'operator-token-of-at-least-24-chars' });
});
afterAll(() => gw.close());

const pathOf = (route: RouteSpec) => route.path.replace(/\{(\w+)\}/g, (_m, name: string) => `x-${name}`);

/** Bodies an anonymous caller might send: none of them may be read before the credential is checked. */
const BODIES: [string, string | undefined][] = [
  ['no body', undefined],
  ['empty body', ''],
  ['{}', '{}'],
  ['null', 'null'],
  ['wrong types', '{"protocol":12,"referenceId":[1],"assetIn":"x","amount":{"a":1}}'],
  ['malformed JSON', '{"protocol":'],
];

/** Credentials that must not pass: missing, made up, and (where the route has one) the wrong kind or scope. */
function credentials(route: RouteSpec): [string, Record<string, string>][] {
  const wrong: [string, Record<string, string>][] = [
    ['no key', {}],
    ['a made-up key', bearer(newApiKey())],
    ['a revoked key', bearer(keys.revoked)],
  ];
  if (route.security === 'wallet_session' || route.security === 'operator') wrong.push(['an API key, not a session', bearer(keys.full)]);
  else if (route.scopes.length > 0) wrong.push(['a key without the scope', bearer(route.scopes.includes('data:read') ? keys.previewOnly : keys.readOnly)]);
  return wrong;
}

const send = (route: RouteSpec, headers: Record<string, string>, body: string | undefined) =>
  gw.get(pathOf(route), {
    method: route.method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body !== undefined && route.method !== 'GET' ? { body } : {}),
  });

describe.each(GUARDED.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  const cases = credentials(route).flatMap(([who, headers]) =>
    (route.method === 'GET' ? BODIES.slice(0, 1) : BODIES).map(([what, body]) => [who, what, headers, body] as const),
  );
  it.each(cases)('%s, %s: 401 before any validation', async (_who, _what, headers, body) => {
    const res = await send(route, headers, body);
    const text = await res.text();
    expect(res.status, text).toBe(401);
    const json = JSON.parse(text);
    expect(json).toMatchObject({ error: 'Unauthorized', retryable: false, requestId: res.headers.get('x-request-id') });
    expect(['unauthenticated', 'insufficient_scope', 'wallet_session_required', 'operator_required']).toContain(json.code);
    // Nothing about the route's arguments reaches a caller without the credential.
    expect(text).not.toMatch(/Variable|\$|String!|required type|protocol|referenceId/);
  });
});

describe('GraphQL root fields that need a credential', () => {
  const gql = (query: string, headers: Record<string, string> = {}) =>
    gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });

  it.each([
    [
      'previewExecution with its variables missing',
      'mutation($p: String!, $a: String!) { previewExecution(protocol: $p, action: $a, assetIn: { token: "USDC", amount: "1" }, referenceId: "r") { referenceId } }',
    ],
    [
      'execute with its variables missing',
      'mutation($p: String!) { execute(protocol: $p, action: "open", assetIn: { token: "USDC", amount: "1" }, referenceId: "r") { executionId } }',
    ],
    ['a guarded field behind a fragment', 'query($a: String!) { ...F } fragment F on Query { perpPrice(asset: $a) { data { price } } }'],
    ['operator controls', '{ operatorControls { killSwitchEngaged } }'],
  ])('%s: 401 unauthenticated, no variable wording', async (_name, query) => {
    const res = await gql(query);
    const text = await res.text();
    expect(res.status, text).toBe(401);
    expect(text).not.toMatch(/Variable|required type/);
    expect(JSON.parse(text).errors[0].extensions.code).toMatch(/unauthenticated|operator_required/);
  });

  it('a key without the scope: 401 insufficient_scope before the variables', async () => {
    const res = await gql('query($a: String!) { perpPrice(asset: $a) { data { price } } }', bearer(keys.previewOnly));
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].extensions.code).toBe('insufficient_scope');
  });

  it('a scoped key reaches the check of its variables; public fields stay open', async () => {
    const res = await gql('query($a: String!) { perpPrice(asset: $a) { data { price } } }', bearer(keys.readOnly));
    expect((await res.json()).errors[0].extensions?.code ?? '').not.toMatch(/unauthenticated|insufficient_scope/);
    const open = await gql('{ market(asset: "BTC") { data { price } } }');
    expect(open.status).toBe(200);
  });
});
