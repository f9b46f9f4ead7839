import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/contract/route-registry.js';
import { AMOUNT_BOUNDS } from '../src/domain/validators.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

let gw: TestGateway;
let keys: BootstrapKeys;
let session: string;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN, env: 'production' }, SESSION_TIME);
  session = await walletSession(gw);
});
afterAll(() => gw.close());

/** No GraphQL or JavaScript wording in a REST error. */
const LIBRARY_WORDING = /Variable "\$|String!|Int!|required type|Cannot read properties|Unexpected token|" is not valid JSON|originalError|SyntaxError/;

async function expect400(res: Response, field?: string) {
  const text = await res.text();
  expect(res.status, text).toBe(400);
  expect(text).not.toMatch(LIBRARY_WORDING);
  const body = JSON.parse(text);
  expect(body).toMatchObject({ error: 'Bad Request', code: 'invalid_request', retryable: false, requestId: res.headers.get('x-request-id') });
  if (field) expect(body.details.field).toBe(field);
  return body;
}

const raw = (path: string, body: string, token = keys.full) =>
  gw.get(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });

describe('every bad input is a 400 in the error shape, in the client’s terms', () => {
  it.each(['1,5', 'abc', '', ' 1', '1e5', 'NaN', '0x10'])('amount %j', async (amount) => {
    const body = await expect400(
      await call(gw, 'POST', '/api/v1/execute/preview', keys.full, perpOrder(`bad-${amount}`, { assetIn: { token: 'BTC', amount } })),
      'assetIn.amount',
    );
    expect(body.message).toMatch(/decimal string/);
  });

  it('a numeric referenceId is refused, not coerced', async () => {
    const body = await expect400(await call(gw, 'POST', '/api/v1/execute/preview', keys.full, perpOrder(12345 as never)), 'referenceId');
    expect(body.message).toBe("'referenceId' must be a string.");
  });

  it('an unknown top-level field is named', async () => {
    const body = await expect400(await call(gw, 'POST', '/api/v1/execute', keys.full, { ...perpOrder('typo'), approvalID: 'apr_1' }), 'approvalID');
    expect(body.message).toMatch(/^'approvalID' is not a field of this request/);
  });

  it.each([
    ['null', 'null'],
    ['an array', '[]'],
    ['a string', '"x"'],
    ['malformed JSON', '{"protocol":'],
  ])('a body that is %s', async (_name, body) => {
    await expect400(await raw('/api/v1/execute/preview', body));
  });

  it('an empty object names the first missing field', async () => {
    const body = await expect400(await raw('/api/v1/execute/preview', '{}'), 'protocol');
    expect(body.message).toBe("'protocol' is required.");
  });

  it('wrong JSON types are refused, not coerced', async () => {
    await expect400(await call(gw, 'POST', '/api/v1/execute/preview', keys.full, perpOrder('t1', { assetIn: 'BTC 1' })), 'assetIn');
    await expect400(await call(gw, 'POST', '/api/v1/execute/preview', keys.full, perpOrder('t2', { metadata: 5 })), 'metadata');
  });

  const agentSession = (overrides: Record<string, unknown>) => ({
    apiKeyId: 'k-full',
    protocols: ['paper-perps'],
    actions: ['place_order'],
    assets: ['BTC'],
    maxOrderNotional: '10',
    maxPeriodNotional: '100',
    periodSeconds: 3600,
    expiresAt: '2026-11-19T00:00:00Z',
    ...overrides,
  });

  it.each([
    ['maxPeriodNotional "lots"', { maxPeriodNotional: 'lots' }, 'maxPeriodNotional'],
    ['assets 123', { assets: 123 }, 'assets'],
    ['periodSeconds "60"', { periodSeconds: '60' }, 'periodSeconds'],
  ])('agent session with %s', async (_name, overrides, field) => {
    await expect400(await call(gw, 'POST', '/api/v1/agent-sessions', session, agentSession(overrides)), field);
  });

  it('a rolled-over date (2026-02-30) is refused on a body and on a query parameter', async () => {
    const res = await call(gw, 'POST', '/api/v1/agent-sessions', session, agentSession({ expiresAt: '2026-02-30T00:00:00Z' }));
    expect(res.status).toBe(400);
    expect(await res.text()).not.toMatch(LIBRARY_WORDING);
    const history = await gw.get('/api/v1/public/markets/BTC/history?from=2026-02-30T00:00:00Z');
    expect(history.status).toBe(400);
  });
});

describe('query parameters: every route, in the gateway’s words', () => {
  const withQuery = ROUTES.filter((r) => r.method === 'GET' && r.queryParams);
  const cases = withQuery.flatMap((route) =>
    Object.entries(route.queryParams!).flatMap(([name, param]) => {
      const good = param.enum?.[0] ?? (param.type === 'integer' ? '5' : param.format === 'date-time' ? '2026-11-18T10:00:00Z' : 'x');
      return [
        [route.path, name, `${name}=${good}&${name}=${good}`],
        [route.path, name, `${name}[]=${good}&${name}[]=2`],
        [route.path, name, `${name}[0]=${good}`],
        [route.path, name, `${name}=`],
      ] as const;
    }),
  );

  it.each(cases)('%s ?%s given as %s: the route’s own 400 naming it', async (path, name, query) => {
    const route = ROUTES.find((r) => r.path === path && r.method === 'GET')!;
    const url = path.replace('{asset}', 'BTC') + `?${query}`;
    const res = await gw.get(url, route.visibility === 'public' ? {} : { headers: { authorization: `Bearer ${keys.full}` } });
    const text = await res.text();
    expect(res.status, text).toBe(400);
    expect(text).not.toMatch(LIBRARY_WORDING);
    expect(text).not.toMatch(/cannot represent|Int |String |\["/);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ code: route.invalidInputCode ?? 'invalid_request', details: { parameter: name }, retryable: false });
    expect(body.message).toContain(`'${name}'`);
  });
});

describe('decimals stay decimals', () => {
  const swap = (referenceId: string, amount: string) => ({
    protocol: 'paper-swap',
    action: 'swap',
    assetIn: { token: 'USDC', amount },
    metadata: { tokenOut: 'WETH' },
    referenceId,
  });

  it.each([
    ['270 integer digits', '9'.repeat(270)],
    ['19 integer digits', '1'.repeat(19)],
    ['19 decimal places', `0.${'0'.repeat(18)}1`],
  ])('an amount of %s is a 400 naming the field, before any quote', async (_what, amount) => {
    for (const order of [swap(`big-${amount.length}`, amount), perpOrder(`big-perp-${amount.length}`, { assetIn: { token: 'BTC', amount } })]) {
      const body = await expect400(await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order), 'assetIn.amount');
      expect(body.message).toMatch(new RegExp(`at most ${AMOUNT_BOUNDS.integerDigits} integer digits and ${AMOUNT_BOUNDS.fractionDigits} decimal places`));
    }
  });

  it('the widest amount accepted comes back in plain digits, never in exponent form', async () => {
    const amount = `${'9'.repeat(AMOUNT_BOUNDS.integerDigits)}.${'9'.repeat(AMOUNT_BOUNDS.fractionDigits)}`;
    const res = await call(gw, 'POST', '/api/v1/execute/preview', keys.full, swap('widest', amount));
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const exponents: string[] = [];
    JSON.parse(text, (_key, value) => {
      if (typeof value === 'string' && /^-?[\d.]+[eE][+-]?\d+$/.test(value)) exponents.push(value);
      return value;
    });
    expect(exponents).toEqual([]);
    const preview = JSON.parse(text);
    expect(preview.instruction.assetIn.amount).toBe(amount);
    expect(preview.quote.amount).toBe(amount);
  });
});

describe('GraphQL requests', () => {
  it('a malformed body is a 400 without the parser’s own error', async () => {
    const res = await gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{"query":' });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toMatch(/originalError|SyntaxError|Unexpected end/);
  });

  const gql = (body: unknown, accept: string) =>
    gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
  const ACCEPTS = ['application/json', 'application/graphql-response+json'];
  const byVariable = 'query ($asset: String!) { market(asset: $asset) { schemaVersion } }';

  describe.each(ACCEPTS)('a request that cannot run is a 400 with a code (Accept: %s)', (accept) => {
    it.each([
      ['a variable of the wrong type', { query: byVariable, variables: { asset: 5 } }, 'invalid_request', /got invalid value 5/],
      ['a missing required variable', { query: byVariable, variables: {} }, 'invalid_request', /was not provided/],
      ['a literal of the wrong type', { query: '{ market(asset: 5) { schemaVersion } }' }, 'invalid_request', /String cannot represent/],
      ['a literal outside its enum', { query: '{ marketGraph(returns: bogus) { schemaVersion } }' }, 'invalid_request', /does not exist in "ReturnKind" enum/],
      [
        'a variable outside its enum',
        { query: 'query ($r: ReturnKind) { marketGraph(returns: $r) { schemaVersion } }', variables: { r: 'bogus' } },
        'invalid_request',
        /got invalid value "bogus"/,
      ],
      ['an unknown field', { query: '{ nosuch }' }, 'GRAPHQL_VALIDATION_FAILED', /Cannot query field "nosuch"/],
    ])('%s', async (_name, body, code, message) => {
      const res = await gql(body, accept);
      const text = await res.text();
      expect(res.status, text).toBe(400);
      const answer = JSON.parse(text);
      expect(answer.data).toBeUndefined();
      expect(answer.errors.length).toBeGreaterThan(0);
      for (const e of answer.errors) {
        expect(e.extensions).toEqual({ code, retryable: false });
        expect(e.locations?.[0]).toMatchObject({ line: 1 });
      }
      expect(answer.errors[0].message).toMatch(message);
      expect(text).not.toMatch(/originalError|"http"|stack/);
    });

    it('a request that ran keeps its own status: 200 with data, 401 for a missing key', async () => {
      const ok = await gql({ query: byVariable, variables: { asset: 'BTC' } }, accept);
      expect(ok.status).toBe(200);
      expect((await ok.json()).data.market.schemaVersion).toBe('service.public-data.v1');
      const refused = await gql({ query: '{ viewer { accountId } }' }, accept);
      expect(refused.status).toBe(401);
      expect((await refused.json()).errors[0].extensions.code).toBe('unauthenticated');
    });
  });

  it('an Accept it cannot answer is a 406 in the error shape', async () => {
    const res = await gw.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/html' },
      body: '{"query":"{ status { data { mode } } }"}',
    });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ code: 'not_acceptable', requestId: res.headers.get('x-request-id') });
  });

  it('another method is a 405 with a JSON body', async () => {
    const res = await gw.get('/graphql', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/json/);
    await res.json();
  });
});
