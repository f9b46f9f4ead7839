import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES, ROUTES } from '../src/contract/route-registry.js';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
beforeAll(async () => (gw = await startGateway()));
afterAll(() => gw.close());

const examplePath = (path: string) => path.replace('{asset}', 'BTC').replace('{protocol}', 'paper-perps');

function expectErrorResponse(res: Response, body: any, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof body.error).toBe('string');
  expect(typeof body.code).toBe('string');
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/work\/|\.ts\b|stack/i);
}

describe('only contract routes exist', () => {
  it('serves exactly the nine public routes of the spec', () => {
    expect(ROUTES.filter((r) => r.visibility === 'public').map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v1/public/markets',
      'GET /api/v1/public/markets/{asset}',
      'GET /api/v1/public/markets/{asset}/history',
      'GET /api/v1/public/markets/{asset}/orderbook',
      'GET /api/v1/public/protocols/{protocol}',
      'GET /api/v1/public/status',
      'GET /api/v1/public/data/markets.json',
      'GET /api/v1/public/data/protocols.json',
      'GET /api/v1/public/openapi.public.json',
    ]);
  });

  it.each(PUBLIC_ROUTES.map((r) => [r.method, r.path]))('%s %s answers 200 with JSON', async (method, path) => {
    const res = await gw.get(examplePath(path), { method });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.json()).toBeTypeOf('object');
  });

  it.each([
    '/api/markets',
    '/api/market',
    '/api/market-history',
    '/api/order-book',
    '/api/protocols',
    '/api/status',
    '/api/public-open-api',
    '/api/webhook',
    '/api/webhook/abc',
    '/api/openapi.json',
    '/api/docs',
    '/api/v1/public/markets/BTC/trades',
    '/api/v1/public/markets/',
    '/',
    '/docs',
    '/openapi.json',
    '/graphql/extra',
    '/health',
    '/api/health',
    '/api/v1/public/health',
  ])('GET %s is a JSON 404 error response', async (path) => {
    const res = await gw.get(path);
    expectErrorResponse(res, await res.json(), 404);
  });

  it("has no health-check suffix route: a market named 'health' is just an unknown market", async () => {
    const res = await gw.get('/api/v1/public/markets/health');
    expect(res.status).toBe(404);
    expect((await res.json()).freshness).toMatchObject({ stale: true, staleReason: 'not_found' });
  });

  it('blocks Sofa webhooks for every method (no server-side requests to caller URLs)', async () => {
    for (const method of ['POST', 'DELETE']) {
      for (const path of ['/api/webhook', '/api/webhook/1']) {
        const res = await gw.get(path, { method, body: method === 'POST' ? JSON.stringify({ subscription: 'x', url: 'http://127.0.0.1:1/' }) : undefined });
        expectErrorResponse(res, await res.json(), 404);
      }
    }
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s on a public path is a 405 error response naming the allowed method', async (method) => {
    for (const route of ROUTES.filter((r) => r.visibility === 'public')) {
      const res = await gw.get(examplePath(route.path), { method, body: method === 'DELETE' ? undefined : '{}' });
      const body = await res.json();
      expectErrorResponse(res, body, 405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('echoes a sane client x-request-id and replaces anything else', async () => {
    const mine = await gw.get('/api/v1/public/status', { headers: { 'x-request-id': 'client-req-12345' } });
    expect(mine.headers.get('x-request-id')).toBe('client-req-12345');
    const odd = await gw.get('/api/nope', { headers: { 'x-request-id': 'bad id with spaces' } });
    const id = odd.headers.get('x-request-id');
    expect(id).not.toBe('bad id with spaces');
    expect((await odd.json()).requestId).toBe(id);
  });

  it('answers malformed percent-encoding with a 400 error response', async () => {
    const res = await gw.get('/api/v1/public/markets/%E0%A4%A');
    expectErrorResponse(res, await res.json(), 400);
  });
});
