import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../src/auth/api-key-secret.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap } from './support/keys.js';
import { RawGraphqlWs } from './support/ws-raw.js';

const keys = writeBootstrap();
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ bootstrapPath: keys.path, trustProxy: true, rateLimits: { publicPerMinute: 5, keyPerMinute: 8 } });
});
afterAll(() => gw.close());

const gql = (headers: Record<string, string>, query = '{ market(asset: "BTC") { data { price } } }') =>
  gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });

describe('rate limits by verified identity', () => {
  it('a made-up Bearer per request counts against the client address, not a fresh budget per token', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await gql({ ...bearer(newApiKey()), 'x-forwarded-for': '203.0.113.50' })).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const limited = await gql({ ...bearer(newApiKey()), 'x-forwarded-for': '203.0.113.50' });
    expect(limited.headers.get('ratelimit-policy')).toBe('"public";q=5;w=60');
    // The same for a non-public REST route: the made-up key is limited as its address, then refused.
    const rest = await gw.get('/api/v1/data/perps/price/BTC', { headers: { ...bearer(newApiKey()), 'x-forwarded-for': '203.0.113.50' } });
    expect(rest.status).toBe(429);
  });

  it('a verified key from the same address keeps its own budget', async () => {
    const res = await gql({ ...bearer(keys.readOnly), 'x-forwarded-for': '203.0.113.50' });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"api-key";q=8;w=60');
  });

  it('graphql-ws operations count too: an error with code rate_limited and retryAfter, the socket stays open', async () => {
    const ws = await RawGraphqlWs.connect(gw.baseUrl);
    const answers: { type: string; payload?: unknown }[] = [];
    for (let i = 0; i < 7; i++) {
      ws.subscribe(`q${i}`, '{ status { data { mode } } }');
      answers.push((await ws.until((m) => m.id === `q${i}` && (m.type === 'next' || m.type === 'error')))!);
    }
    const limited = answers.filter((a) => a.type === 'error');
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited[0]!.payload).toMatchObject([{ extensions: { code: 'rate_limited', retryable: true } }]);
    expect((limited[0]!.payload as { extensions: { retryAfter: number } }[])[0]!.extensions.retryAfter).toBeGreaterThan(0);
    expect(ws.closed).toBeUndefined();
    ws.close();
  });
});
