import { request as httpRequest } from 'node:http';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES, ROUTES } from '../src/contract/route-registry.js';
import { buildContractSofa } from '../src/http/rest/contract-sofa.js';
import { routeOperations } from '../src/http/rest/route-operations.js';
import { ContractDocuments } from '../src/contract/contract-documents.js';
import { startGateway, type TestGateway } from './support/gateway.js';

// A Wednesday mid-session, so equities have candles and books too.
const NOW = Date.parse('2026-11-18T17:00:30.000Z');
const EQUITY_SOURCE = 'paper-equities';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ cursorSecret: 'rest-answers-test-cursor-secret-0123456789' }, NOW);
});
afterAll(() => gw?.close());

const VOLATILE = ['generatedAt', 'freshnessMs', 'requestId'];
/** A body without what differs by request or by wall clock. */
const comparable = (text: string): unknown => (text === '' ? '' : JSON.parse(text, (key, value) => (VOLATILE.includes(key) ? undefined : value)));
const STACK = /\bat .+:\d+:\d+|node_modules|\/work\/|\.ts\b|stack/i;
const examplePath = (path: string) => path.replace('{asset}', 'BTC').replace('{protocol}', 'paper-perps');

/** Every REST error answer: the spec's error response with the request id, never a stack. */
async function expectErrorAnswer(res: Response, status: number, code?: string) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(text).not.toMatch(STACK);
  const body = JSON.parse(text);
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  if (code) expect(body.code).toBe(code);
  return body;
}

describe('a REST answer is its field answered by the schema', () => {
  it.each(PUBLIC_ROUTES.map((r) => [r.operationId, r] as const))('%s: the route operation over /graphql gives the same data', async (_id, route) => {
    const sofa = buildContractSofa(gw.app.yoga.getEnveloped({}).schema, new ContractDocuments(() => gw.app.services.protocols.all()));
    const operation = routeOperations(sofa, ROUTES).get(route)!;
    const rest = await gw.get(examplePath(route.path));
    expect(rest.status).toBe(200);
    const variables = Object.fromEntries(Object.keys(route.pathParams ?? {}).map((name) => [name, name === 'asset' ? 'BTC' : 'paper-perps']));
    const graphql = await gw.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: print(operation.document), variables }),
    });
    const answer = (await graphql.json()) as { data: Record<string, unknown> };
    expect(comparable(await rest.text())).toEqual(comparable(JSON.stringify(answer.data[operation.fieldName])));
  });
});

describe('public reads', () => {
  it.each([
    '/api/v1/public/markets/BTC-PERP',
    '/api/v1/public/markets/btc',
    '/api/v1/public/markets/AAPL',
    '/api/v1/public/markets/BTC%2DPERP',
    '/api/v1/public/markets/ETH/orderbook',
    '/api/v1/public/markets/ETH-PERP/history?resolution=5m&limit=3',
    '/api/v1/public/markets/BTC/history?resolution=1h&from=2026-11-18T10:00:00Z&to=2026-11-18T14:00:00Z&limit=2',
    '/api/v1/public/markets?unrelated=1',
    '/openapi.public.json',
  ])('GET %s: 200 JSON with its request id', async (path) => {
    const res = await gw.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('ratelimit-policy')).toBe('"public";q=600;w=60');
  });

  it('answers an unknown market with a stale 404 envelope that must be revalidated', async () => {
    for (const path of ['/api/v1/public/markets/DOGE-PERP', '/api/v1/public/markets/NOPE/history?resolution=1h']) {
      const res = await gw.get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect((await res.json()).freshness).toMatchObject({ stale: true, staleReason: 'not_found' });
    }
  });

  it.each([
    ['?limit=abc', 'limit'],
    ['?limit=0', 'limit'],
    ['?limit=367', 'limit'],
    ['?limit=1.5', 'limit'],
    ['?limit=', 'limit'],
    ['?resolution=', 'resolution'],
    ['?resolution=2m', 'resolution'],
    ['?limit=10&limit=20', 'limit'],
    ['?limit[]=44&limit[]=2', 'limit'],
    ['?limit[0]=4', 'limit'],
    ['?cursor[]=x&cursor[]=2', 'cursor'],
    ['?resolution[x]=1', 'resolution'],
    ['?from=yesterday', 'from'],
    ['?from=2026-11-18', 'from'],
    ['?from=2026-11-18T12:00:00Z&to=2026-11-18T11:00:00Z', undefined],
    ['?limit=99999999999', 'limit'],
    ['?resolution=1m&from=2026-11-01T00:00:00Z', undefined],
  ])('answers history%s with its own 400 naming the parameter, in the gateway’s words', async (query, parameter) => {
    const body = await expectErrorAnswer(await gw.get(`/api/v1/public/markets/BTC/history${query}`), 400, 'invalid_public_market_history_query');
    if (parameter) expect(body.details?.parameter ?? body.details?.field).toBe(parameter);
    expect(body.message).not.toMatch(/Int cannot|String cannot|represent|Variable|\$/);
  });

  it('answers order-book 404s and a down venue 503 with Retry-After', async () => {
    for (const asset of ['NOPE', 'USDC-LEND', 'WETH-USDC'])
      await expectErrorAnswer(await gw.get(`/api/v1/public/markets/${asset}/orderbook`), 404, 'public_orderbook_not_available');
    await gw.setFault(EQUITY_SOURCE, 'down');
    try {
      const res = await gw.get('/api/v1/public/markets/AAPL/orderbook');
      expect(res.headers.get('retry-after')).toBe('5');
      await expectErrorAnswer(res, 503, 'public_orderbook_unavailable');
      expect((await gw.get('/api/v1/public/markets/AAPL')).status).toBe(200);
    } finally {
      await gw.setFault(EQUITY_SOURCE, 'none');
    }
  });

  it('answers If-None-Match on both mirrors with 304 (no body, no content type), and a stale validator with 200', async () => {
    for (const path of ['/api/v1/public/data/markets.json', '/api/v1/public/data/protocols.json']) {
      const etag = (await gw.get(path)).headers.get('etag');
      expect(etag).toMatch(/^W\/".+"$/);
      for (const ifNoneMatch of [etag!, `"other", ${etag}`, '*']) {
        const res = await gw.get(path, { headers: { 'if-none-match': ifNoneMatch } });
        expect(res.status).toBe(304);
        expect(await res.text()).toBe('');
        expect(res.headers.get('content-type')).toBeNull();
        expect(res.headers.get('etag')).toBe(etag);
      }
      expect((await gw.get(path, { headers: { 'if-none-match': 'W/"stale"' } })).status).toBe(200);
    }
  });

  it('keeps Cache-Control to what is left of the max age, and no-cache once stale', async () => {
    gw.clock.advance(61_000);
    for (const path of ['/api/v1/public/markets', '/api/v1/public/markets/BTC', '/api/v1/public/markets/BTC/orderbook']) {
      expect((await gw.get(path)).headers.get('cache-control')).toBe('no-cache');
    }
    await gw.app.services.ingest.pollAll();
    expect((await gw.get('/api/v1/public/markets')).headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  });

  it('adds CORS headers for a request with an Origin, on answers and refusals alike', async () => {
    for (const path of ['/api/v1/public/markets/BTC', '/api/v1/public/markets/BTC/history?limit=0']) {
      const res = await gw.get(path, { headers: { origin: 'https://app.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    }
  });

  it('echoes a sane client request id in the header and the error body', async () => {
    const res = await gw.get('/api/v1/public/markets/NOPE/orderbook', { headers: { 'x-request-id': 'client-req-12345' } });
    expect(res.headers.get('x-request-id')).toBe('client-req-12345');
    expect((await res.json()).requestId).toBe('client-req-12345');
  });

  it('HEAD: the GET answer without a body (RFC 9110)', async () => {
    const get = await gw.get('/api/v1/public/markets/BTC');
    const head = await gw.get('/api/v1/public/markets/BTC', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });

  it.each(['POST', 'PUT', 'DELETE'])('%s on a public path: 405 naming GET and HEAD', async (method) => {
    const res = await gw.get('/api/v1/public/markets/BTC', { method, body: method === 'POST' || method === 'PUT' ? '{}' : undefined });
    await expectErrorAnswer(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it.each([
    ['an authenticated route', '/api/v1/data/perps/price/BTC', 401, 'unauthenticated'],
    ['an unknown public path', '/api/v1/public/nope', 404, 'route_not_found'],
    ['malformed percent-encoding', '/api/v1/public/markets/%E0%A4%A', 400, 'invalid_request'],
    ['malformed percent-encoding on history', '/api/v1/public/markets/%E0%A4%A/history', 400, 'invalid_public_market_history_query'],
  ])('%s: %s answers %s %s', async (_what, path, status, code) => {
    await expectErrorAnswer(await gw.get(path), status, code);
  });

  it('resolves dot segments as URL parsing does (never a route outside the registry)', async () => {
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(gw.baseUrl + '/', { path }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject).end();
      });
    for (const path of ['/api/v1/public/markets/x/../BTC', '/api/v1/public/markets/%2e%2e/markets/ETH', '/api/v1/public/markets/..']) {
      const answer = await raw(path);
      expect([200, 404]).toContain(answer.status);
      expect(answer.body).not.toMatch(STACK);
    }
  });
});

describe('rate limits on the public plane', () => {
  let limited: TestGateway;
  beforeAll(async () => {
    limited = await startGateway({ trustProxy: true, rateLimits: { publicPerMinute: 3, keyPerMinute: 3 } }, NOW);
  });
  afterAll(() => limited?.close());

  it('counts, limits and answers 429 with Retry-After; a malformed read costs no budget', async () => {
    const from = { headers: { 'x-forwarded-for': '203.0.113.50' } };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await limited.get('/api/v1/public/markets/BTC/history?limit=abc', from)).status).toBe(400);
      statuses.push((await limited.get('/api/v1/public/markets/BTC', from)).status);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const res = await limited.get('/api/v1/public/markets/BTC', from);
    const body = await expectErrorAnswer(res, 429, 'rate_limited');
    expect(body).toMatchObject({ retryable: true, details: { policy: 'public', limit: 3, windowSeconds: 60 } });
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(body.retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get('retry-after')).toBe(String(body.retryAfter));
    // Another client address is unaffected.
    expect((await limited.get('/api/v1/public/markets/BTC', { headers: { 'x-forwarded-for': '203.0.113.51' } })).status).toBe(200);
  });
});
