import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../src/auth/api-key-secret.js';
import { ROUTES, type RouteSpec } from '../src/contract/route-registry.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { perpOrder, SESSION_TIME } from './support/execution.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * Seeded property tests over every registry route through real HTTP: whatever the path
 * parameters, query, headers and body, the gateway answers below 500, every error is the spec's
 * JSON error shape, and no REST error carries GraphQL or JavaScript wording.
 */
const SEED = 20_261_124;
const LIBRARY_WORDING =
  /Variable "\$|String!|Int!|Boolean!|required type|Cannot read properties|Unexpected token|" is not valid JSON|originalError|SyntaxError|TypeError|at .*\.ts:\d+/;

let gw: TestGateway;
let keys: BootstrapKeys;
let session: string;
const OPERATOR = 'operator-token-of-at-least-24-chars';
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway(
    { bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN, env: 'production', operatorToken: OPERATOR, rateLimits: { publicPerMinute: 1e6, keyPerMinute: 1e6 } },
    SESSION_TIME,
  );
  session = await walletSession(gw);
});
afterAll(() => gw.close());

async function check(res: Response, label: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${label} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status < 400) return;
  expect(res.headers.get('content-type'), label).toMatch(/^application\/json/);
  const body = JSON.parse(text);
  // The spec answers an unknown market with a stale envelope under 404, not an error response.
  if (res.status === 404 && 'schemaVersion' in body) return;
  expect(typeof body.error, label).toBe('string');
  expect(typeof body.code, label).toBe('string');
  expect(body.requestId, label).toBe(res.headers.get('x-request-id'));
  expect(text, label).not.toMatch(LIBRARY_WORDING);
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const credential = () =>
  fc.constantFrom<Record<string, string>>(
    {},
    bearer(keys.full),
    bearer(keys.readOnly),
    bearer(keys.previewOnly),
    bearer(session),
    bearer(newApiKey()),
    bearer(OPERATOR),
    { authorization: 'Bearer ' },
    { authorization: 'Basic x' },
  );
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', undefined);
const pathSegment = fc.oneof(fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.constantFrom('BTC', 'paper-perps', '%E0%A4%A', '..', 'apr_1', '%00'));
const query = fc.dictionary(
  fc.constantFrom('limit', 'from', 'to', 'resolution', 'asset', 'x'),
  fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String)),
  {
    maxKeys: 3,
  },
);

/** A body: random JSON, or the route's own fields with random values (closer to what gets past the parser). */
function bodyFor(route: RouteSpec) {
  const fields = Object.keys(perpOrder('x')).concat([
    'approvalId',
    'decision',
    'message',
    'signature',
    'apiKeyId',
    'maxPeriodNotional',
    'periodSeconds',
    'expiresAt',
  ]);
  return fc.oneof(
    jsonValue.map((v) => JSON.stringify(v)),
    fc.dictionary(fc.constantFrom(...fields), jsonValue, { maxKeys: 8 }).map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 60 }),
    fc.constant(route.method === 'GET' ? '' : 'null'),
  );
}

describe('fuzz: every registry route', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers < 500 in the error shape',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(pathSegment, { minLength: 3, maxLength: 3 }),
          query,
          credential(),
          contentType,
          bodyFor(route),
          async (segments, params, auth, type, body) => {
            let i = 0;
            const path = route.path.replace(/\{\w+\}/g, () => segments[i++ % segments.length] || 'x');
            const qs = new URLSearchParams(params).toString();
            const url = qs ? `${path}?${qs}` : path;
            const headers: Record<string, string> = { ...auth, ...(type ? { 'content-type': type } : {}) };
            const res = await gw.get(url, { method: route.method, headers, ...(route.method === 'GET' ? {} : { body }) });
            await check(res, `${route.method} ${url} ${body.slice(0, 80)}`);
          },
        ),
        { seed: SEED, numRuns: 40 },
      );
    },
    60_000,
  );
});

describe('fuzz: the money routes around a valid order', () => {
  const order = perpOrder('fuzz');
  const fieldValue = fc.oneof(
    jsonValue,
    fc.constantFrom('1,5', 'abc', '', ' 1', '1e5', '-0', '00.1', '9'.repeat(80), '0.000000000000000000001', 'NaN', 'Infinity'),
  );
  const mutated = fc.record({
    key: fc.constantFrom(...Object.keys(order), 'assetIn.amount', 'assetIn.token', 'metadata.side', 'metadata.limitPrice', 'extra'),
    value: fieldValue,
    referenceId: fc.uuid(),
  });

  it.each([
    ['POST', '/api/v1/execute/preview', () => keys.full],
    ['POST', '/api/v1/execute', () => keys.full],
    ['POST', '/api/v1/execute/approvals', () => session],
  ] as const)(
    '%s %s',
    async (method, path, token) => {
      await fc.assert(
        fc.asyncProperty(mutated, async ({ key, value, referenceId }) => {
          const body = JSON.parse(JSON.stringify({ ...order, referenceId })) as Record<string, Record<string, unknown>>;
          const [outer, inner] = key.split('.') as [string, string | undefined];
          if (inner) body[outer] = { ...(body[outer] ?? {}), [inner]: value };
          else (body as Record<string, unknown>)[outer] = value;
          const res = await gw.get(path, { method, headers: { 'content-type': 'application/json', ...bearer(token()) }, body: JSON.stringify(body) });
          await check(res, `${method} ${path} ${JSON.stringify(body).slice(0, 200)}`);
        }),
        { seed: SEED, numRuns: 150 },
      );
    },
    60_000,
  );
});
