import { request as httpRequest } from 'node:http';
import { print, type GraphQLSchema } from 'graphql';
import { createSofa, createSofaRouter } from 'sofa-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PUBLIC_ROUTES } from '../src/contract/route-registry.js';
import { PublicFastPath } from '../src/http/public-fast-path.js';
import { sofaRoutes } from '../src/http/use-sofa-routes.js';
import { restSchemaOf } from '../src/http/rest-schema.js';
import { startGateway, type TestGateway } from './support/gateway.js';

// A Wednesday mid-session, so equities have candles and books too.
const NOW = Date.parse('2026-11-18T17:00:30.000Z');
const EQUITY_SOURCE = 'paper-equities';

const handle = vi.spyOn(PublicFastPath.prototype, 'handle');

let fast: TestGateway;
let sofa: TestGateway;
beforeAll(async () => {
  // One cursor secret, so both sign the same history cursors.
  const cursorSecret = 'fast-path-test-cursor-secret-0123456789';
  [fast, sofa] = await Promise.all([startGateway({ cursorSecret }, NOW), startGateway({ publicFastPath: false, cursorSecret }, NOW)]);
});
afterAll(async () => {
  await Promise.all([fast?.close(), sofa?.close()]);
  handle.mockRestore();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** Whether the fast path answered (only meaningful on the fast gateway). */
  fastPath: boolean;
}

/** One request per gateway, fast first; same headers, sequential so rate-limit counters move alike. */
async function both(path: string, init: RequestInit = {}, pair: [TestGateway, TestGateway] = [fast, sofa]): Promise<[Answer, Answer]> {
  handle.mockClear();
  const a = await pair[0].get(path, init);
  const fastPath = handle.mock.results.some((r) => r.type === 'return' && r.value === true);
  const first: Answer = { status: a.status, headers: a.headers, text: await a.text(), fastPath };
  const b = await pair[1].get(path, init);
  return [first, { status: b.status, headers: b.headers, text: await b.text(), fastPath: false }];
}

const VOLATILE = ['generatedAt', 'freshnessMs', 'requestId'];

/** The body without what differs by request or by wall clock. */
function comparable(text: string, volatile: readonly string[] = VOLATILE): unknown {
  if (text === '') return '';
  return JSON.parse(text, (key, value) => (volatile.includes(key) ? undefined : value));
}

/** Header names and the values that must agree; RateLimit's reset (seconds left, wall clock) only by shape. */
function headerShape(h: Headers): Record<string, string | null> {
  const ignored = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);
  const shape: Record<string, string | null> = {
    names: [...h.keys()]
      .filter((n) => !ignored.has(n))
      .sort()
      .join(','),
  };
  for (const name of ['content-type', 'cache-control', 'etag', 'ratelimit-policy', 'allow', 'www-authenticate', 'vary', 'access-control-allow-origin']) {
    shape[name] = h.get(name);
  }
  shape.ratelimit = h.get('ratelimit')?.replace(/;t=\d+$/, ';t=N') ?? null;
  shape['retry-after'] = h.get('retry-after') === null ? null : 'N';
  return shape;
}

const STACK = /\bat .+:\d+:\d+|node_modules|\/work\/|\.ts\b|stack/i;

function expectSame([f, s]: [Answer, Answer], options: { fastPath: boolean; volatile?: readonly string[] }) {
  expect(f.fastPath).toBe(options.fastPath);
  expect(f.status).toBe(s.status);
  expect(comparable(f.text, options.volatile)).toEqual(comparable(s.text, options.volatile));
  expect(headerShape(f.headers)).toEqual(headerShape(s.headers));
  for (const answer of [f, s]) {
    expect(answer.headers.get('x-request-id')).toBeTruthy();
    if (answer.status >= 400 && answer.text !== '') {
      expect(answer.text).not.toMatch(STACK);
      const body = JSON.parse(answer.text);
      if ('code' in body) expect(body.requestId).toBe(answer.headers.get('x-request-id'));
    }
  }
}

const examplePath = (path: string) => path.replace('{asset}', 'BTC').replace('{protocol}', 'paper-perps');

describe('public fast path: same answers as Sofa', () => {
  it.each(PUBLIC_ROUTES.map((r) => [r.operationId, examplePath(r.path)]))('%s (%s)', async (_id, path) => {
    const answers = await both(path);
    expect(answers[0].status).toBe(200);
    expectSame(answers, { fastPath: true });
  });

  it.each([
    '/api/v1/public/markets/BTC-PERP',
    '/api/v1/public/markets/btc',
    '/api/v1/public/markets/AAPL',
    '/api/v1/public/markets/BTC%2DPERP',
    '/api/v1/public/markets/ETH/orderbook',
    '/api/v1/public/markets/ETH-PERP/history?resolution=5m&limit=3',
    '/api/v1/public/markets/BTC/history?resolution=1h&from=2026-11-18T10:00:00Z&to=2026-11-18T14:00:00Z&limit=2',
    '/api/v1/public/markets/AAPL/history?resolution=1h&from=2026-11-17T00:00:00Z&to=2026-11-17T23:59:59Z',
    '/api/v1/public/markets?unrelated=1',
  ])('GET %s', async (path) => {
    expectSame(await both(path), { fastPath: true });
  });

  it('answers an unknown market with the same 404 envelope', async () => {
    const answers = await both('/api/v1/public/markets/DOGE-PERP');
    expect(answers[0].status).toBe(404);
    expect(answers[0].headers.get('cache-control')).toBe('no-cache');
    expectSame(answers, { fastPath: true });
    const history = await both('/api/v1/public/markets/NOPE/history?resolution=1h');
    expect(history[0].status).toBe(404);
    expectSame(history, { fastPath: true });
  });

  it.each([
    '?limit=abc',
    '?limit=0',
    '?limit=367',
    '?limit=1.5',
    '?limit=',
    '?resolution=',
    '?resolution=2m',
    '?limit=10&limit=20',
    '?from=yesterday',
    '?from=2026-11-18',
    '?from=2026-11-18T12:00:00Z&to=2026-11-18T11:00:00Z',
    '?limit=99999999999',
    '?resolution=1m&from=2026-11-01T00:00:00Z',
  ])('answers history%s with the same 400', async (query) => {
    const answers = await both(`/api/v1/public/markets/BTC/history${query}`);
    expect(answers[0].status).toBe(400);
    expect(JSON.parse(answers[0].text).code).toBe('invalid_public_market_history_query');
    expectSame(answers, { fastPath: true });
  });

  it('answers order-book 404s and a down venue (503, Retry-After) alike', async () => {
    for (const asset of ['NOPE', 'USDC-LEND', 'WETH-USDC']) {
      const answers = await both(`/api/v1/public/markets/${asset}/orderbook`);
      expect(answers[0].status).toBe(404);
      expectSame(answers, { fastPath: true });
    }
    await Promise.all([fast.setFault(EQUITY_SOURCE, 'down'), sofa.setFault(EQUITY_SOURCE, 'down')]);
    try {
      const answers = await both('/api/v1/public/markets/AAPL/orderbook');
      expect(answers[0].status).toBe(503);
      expect(answers[0].headers.get('retry-after')).toBe(answers[1].headers.get('retry-after'));
      expectSame(answers, { fastPath: true });
      expectSame(await both('/api/v1/public/markets/AAPL'), { fastPath: true });
      expectSame(await both('/api/v1/public/status'), { fastPath: true });
    } finally {
      await Promise.all([fast.setFault(EQUITY_SOURCE, 'none'), sofa.setFault(EQUITY_SOURCE, 'none')]);
    }
  });

  it('answers an unknown protocol alike', async () => {
    const answers = await both('/api/v1/public/protocols/nope');
    expect(answers[0].status).toBe(404);
    expectSame(answers, { fastPath: true });
  });

  it('answers If-None-Match on both mirrors with the same 304, and a stale validator with 200', async () => {
    for (const path of ['/api/v1/public/data/markets.json', '/api/v1/public/data/protocols.json']) {
      const [f, s] = await both(path);
      const etag = f.headers.get('etag');
      expect(etag).toMatch(/^W\/".+"$/);
      expect(s.headers.get('etag')).toBe(etag);
      for (const ifNoneMatch of [etag!, `"other", ${etag}`, '*']) {
        const answers = await both(path, { headers: { 'if-none-match': ifNoneMatch } });
        expect(answers[0].status).toBe(304);
        expect(answers[0].text).toBe('');
        expect(answers[0].headers.get('content-type')).toBeNull();
        expectSame(answers, { fastPath: true });
      }
      const changed = await both(path, { headers: { 'if-none-match': 'W/"stale"' } });
      expect(changed[0].status).toBe(200);
      expectSame(changed, { fastPath: true });
    }
  });

  it('keeps freshness and Cache-Control alike as snapshots age and go stale', async () => {
    fast.clock.advance(61_000);
    sofa.clock.advance(61_000);
    for (const path of ['/api/v1/public/markets', '/api/v1/public/markets/BTC', '/api/v1/public/markets/BTC/orderbook']) {
      const answers = await both(path);
      expect(answers[0].headers.get('cache-control')).toBe('no-cache');
      expectSame(answers, { fastPath: true });
    }
    await Promise.all([fast.app.services.ingest.pollAll(), sofa.app.services.ingest.pollAll()]);
    const fresh = await both('/api/v1/public/markets');
    expect(fresh[0].headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expectSame(fresh, { fastPath: true });
  });

  it('adds the same CORS headers for a request with an Origin', async () => {
    const answers = await both('/api/v1/public/markets/BTC', { headers: { origin: 'https://app.example' } });
    expect(answers[0].headers.get('access-control-allow-origin')).toBe('https://app.example');
    expectSame(answers, { fastPath: true });
    const error = await both('/api/v1/public/markets/BTC/history?limit=0', { headers: { origin: 'https://app.example' } });
    expectSame(error, { fastPath: true });
  });

  it('echoes a sane client request id in the header and the error body', async () => {
    const [f] = await both('/api/v1/public/markets/NOPE/orderbook', { headers: { 'x-request-id': 'client-req-12345' } });
    expect(f.headers.get('x-request-id')).toBe('client-req-12345');
    expect(JSON.parse(f.text).requestId).toBe('client-req-12345');
  });
});

describe('what the fast path leaves to Yoga and Sofa', () => {
  it('HEAD on a public path: the GET answer without a body, on both paths alike (RFC 9110)', async () => {
    const answers = await both('/api/v1/public/markets/BTC', { method: 'HEAD' });
    expect(answers[0].status).toBe(200);
    expectSame(answers, { fastPath: true });
  });

  it.each(['POST', 'PUT', 'DELETE'])('%s on a public path: the same 405 through Yoga', async (method) => {
    const answers = await both('/api/v1/public/markets/BTC', { method, body: method === 'POST' || method === 'PUT' ? '{}' : undefined });
    expect(answers[0].status).toBe(405);
    expectSame(answers, { fastPath: false });
  });

  it.each([
    ['an authenticated route', '/api/v1/data/perps/price/BTC', 401],
    ['an unknown public path', '/api/v1/public/nope', 404],
    ['malformed percent-encoding', '/api/v1/public/markets/%E0%A4%A', 400],
    ['a bracketed query (qs syntax URL parsing may touch)', '/api/v1/public/markets/BTC/history?resolution[x]=1', 400],
  ])('%s: the same answer through Yoga', async (_what, path, status) => {
    const answers = await both(path);
    expect(answers[0].status).toBe(status);
    expectSame(answers, { fastPath: false });
  });

  it('leaves dot segments to URL parsing (the same answer as Sofa)', async () => {
    const raw = (gw: TestGateway, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(gw.baseUrl + '/', { path }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject).end();
      });
    for (const path of ['/api/v1/public/markets/x/../BTC', '/api/v1/public/markets/%2e%2e/markets/ETH', '/api/v1/public/markets/..']) {
      handle.mockClear();
      const f = await raw(fast, path);
      expect(handle.mock.results.every((r) => r.value === false)).toBe(true);
      const s = await raw(sofa, path);
      expect(f.status).toBe(s.status);
      expect(comparable(f.body)).toEqual(comparable(s.body));
    }
  });

  it('runs the document Sofa builds for each public field', async () => {
    handle.mockClear();
    await fast.get('/api/v1/public/status');
    const instance = handle.mock.contexts.find((c): c is PublicFastPath => c instanceof PublicFastPath);
    expect(instance).toBeDefined();
    const schema = (fast.app.yoga.getEnveloped as unknown as (ctx: object) => { schema: GraphQLSchema })({}).schema;
    const executed = new Map<string, string>();
    const reference = createSofa({
      schema: restSchemaOf(schema),
      basePath: '/api',
      routes: sofaRoutes(),
      execute: ((args: { document: Parameters<typeof print>[0]; operationName?: string }) => {
        executed.set(args.operationName!, print(args.document));
        return { data: {} };
      }) as never,
    });
    expect({ models: reference.models, ignore: reference.ignore, depthLimit: reference.depthLimit }).toEqual({ models: [], ignore: [], depthLimit: 1 });
    const router = createSofaRouter(reference);
    for (const route of PUBLIC_ROUTES) {
      await router.fetch(`http://localhost${examplePath(route.path)}`);
      const operation = instance!.operationFor(route);
      expect(operation, route.operationId).toBeDefined();
      expect(executed.get(operation!.name!.value), route.operationId).toBe(print({ kind: 'Document' as never, definitions: [operation!] }));
    }
  });
});

describe('rate limits on the fast path', () => {
  let limitedFast: TestGateway;
  let limitedSofa: TestGateway;
  beforeAll(async () => {
    const overrides = { trustProxy: true, rateLimits: { publicPerMinute: 3, keyPerMinute: 3 } };
    [limitedFast, limitedSofa] = await Promise.all([startGateway(overrides, NOW), startGateway({ ...overrides, publicFastPath: false }, NOW)]);
  });
  afterAll(async () => {
    await Promise.all([limitedFast?.close(), limitedSofa?.close()]);
  });

  it('counts, limits and answers 429 alike; guard 400s are not counted', async () => {
    const pair: [TestGateway, TestGateway] = [limitedFast, limitedSofa];
    const from = { headers: { 'x-forwarded-for': '203.0.113.50' } };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      // A guard rejection comes before the limiter, on both paths.
      expectSame(await both('/api/v1/public/markets/BTC/history?limit=abc', from, pair), { fastPath: true });
      const answers = await both('/api/v1/public/markets/BTC', from, pair);
      statuses.push(answers[0].status);
      expectSame(answers, { fastPath: true });
    }
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await both('/api/v1/public/markets/BTC', from, pair);
    expect(limited.map((a) => a.status)).toEqual([429, 429]);
    for (const answer of limited) {
      const body = JSON.parse(answer.text);
      expect(body).toMatchObject({ code: 'rate_limited', retryable: true, details: { policy: 'public', limit: 3, windowSeconds: 60 } });
      expect(body.retryAfter).toBeGreaterThan(0);
      expect(body.retryAfter).toBeLessThanOrEqual(60);
      expect(answer.headers.get('retry-after')).toBe(String(body.retryAfter));
    }
    // retryAfter (and the message naming it) count down on the wall clock, which differs by the time between the two calls.
    expectSame(limited, { fastPath: true, volatile: [...VOLATILE, 'retryAfter', 'message'] });
    // Another client address is unaffected.
    expectSame(await both('/api/v1/public/markets/BTC', { headers: { 'x-forwarded-for': '203.0.113.51' } }, pair), { fastPath: true });
  });
});
