import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLimits } from '../src/config/limits-config.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap } from './support/keys.js';

const keys = writeBootstrap();
const LISTED = 'https://app.example';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ bootstrapPath: keys.path, env: 'production', limits: readLimits({ CORS_ORIGINS: `${LISTED}, https://other.example` }) });
});
afterAll(() => gw.close());

const gqlPost = (headers: Record<string, string>) =>
  gw.get('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ status { data { mode } } }' }),
  });

describe('CORS from an allowlist', () => {
  it('the public plane: any origin, never credentials (fast path and Yoga alike)', async () => {
    for (const path of ['/api/v1/public/markets/BTC', '/api/v1/public/markets/BTC/history?limit=0']) {
      const res = await gw.get(path, { headers: { origin: 'https://evil.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://evil.example');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('authenticated routes and /graphql: only a listed origin, without credentials', async () => {
    const evil = await gqlPost({ origin: 'https://evil.example' });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    const rest = await gw.get('/api/v1/data/perps/price/BTC', { headers: { origin: 'https://evil.example', ...bearer(keys.readOnly) } });
    expect(rest.headers.get('access-control-allow-origin')).toBeNull();
    const listed = await gqlPost({ origin: LISTED });
    expect(listed.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(listed.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('a preflight from an unlisted origin gets no CORS headers', async () => {
    const res = await gw.get('/graphql', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('security headers', () => {
  it.each(['/api/v1/public/markets/BTC', '/api/v1/public/nope', '/graphql?query=%7B__typename%7D', '/api/v1/capabilities'])(
    '%s: nosniff, no-referrer, a restrictive CSP',
    async (path) => {
      const res = await gw.get(path);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    },
  );
});

describe('mutations only as POST application/json (CSRF-safe)', () => {
  it('a mutation over GET is refused', async () => {
    const res = await gw.get(`/graphql?query=${encodeURIComponent('mutation { createSiweNonce { nonce } }')}`);
    expect(res.status).toBe(405);
  });

  it('a form or text/plain POST never executes', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await gw.get('/graphql', { method: 'POST', headers: { 'content-type': type }, body: 'query=mutation%7BcreateSiweNonce%7Bnonce%7D%7D' });
      expect(res.status).toBe(415);
    }
  });
});
