import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';

let gw: TestGateway;
let keys: BootstrapKeys;
beforeAll(async () => {
  keys = writeBootstrap();
  gw = await startGateway({ bootstrapPath: keys.path, trustProxy: true, rateLimits: { publicPerMinute: 5, keyPerMinute: 4 } });
});
afterAll(() => gw.close());

const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('rate limits', () => {
  it('limits the public plane per client address with the spec 429, Retry-After and RateLimit headers', async () => {
    for (let i = 0; i < 5; i++) {
      const ok = await gw.get('/api/v1/public/markets', { headers: from('203.0.113.7') });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-policy')).toBe('"public";q=5;w=60');
      expect(ok.headers.get('ratelimit')).toMatch(new RegExp(`^"public";r=${4 - i};t=\\d+$`));
    }
    const res = await gw.get('/api/v1/public/markets', { headers: from('203.0.113.7') });
    expect(res.status).toBe(429);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'Too Many Requests', code: 'rate_limited', retryable: true });
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(body.retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers.get('retry-after')).toBe(String(body.retryAfter));
    expect(res.headers.get('ratelimit')).toMatch(/^"public";r=0;t=\d+$/);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('leaves other clients unaffected', async () => {
    expect((await gw.get('/api/v1/public/markets', { headers: from('198.51.100.9') })).status).toBe(200);
  });

  it('limits authenticated routes per key, on REST and GraphQL alike', async () => {
    const headers = { ...bearer(keys.readOnly), ...from('192.0.2.1') };
    for (let i = 0; i < 3; i++) expect((await gw.get('/api/v1/data/perps/price/BTC', { headers })).status).toBe(200);
    const gql = await gw.get('/graphql', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ perpPrice(asset: "BTC") { data { price } } }' }),
    });
    expect(gql.status).toBe(200);
    const limited = await gw.get('/api/v1/data/perps/price/BTC', { headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-policy')).toBe('"api-key";q=4;w=60');
    // Another key, same address: unaffected.
    expect((await gw.get('/api/v1/data/perps/price/BTC', { headers: { ...bearer(keys.full), ...from('192.0.2.1') } })).status).toBe(200);
  });
});
