import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteSpec } from '../src/contract/route-registry.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap } from './support/keys.js';

/**
 * RFC 9110 §9.3.2: HEAD on every GET route answers as GET would (status and headers) without a
 * body, on every registry row, whatever path the GET takes (public fast path, Sofa, errors).
 */
const OPERATOR = 'operator-token-for-head-tests-000001';
const PARAMS: Record<string, string> = {
  asset: 'BTC',
  protocol: 'paper-perps',
  approvalId: 'apr_unknown',
  executionId: 'exe_unknown',
  referenceId: 'ref-unknown',
};
/** Headers that differ between any two requests. */
const VOLATILE = new Set(['date', 'x-request-id', 'ratelimit', 'keep-alive', 'connection']);

let gw: TestGateway;
let key: string;
beforeAll(async () => {
  const keys = writeBootstrap();
  key = keys.full;
  gw = await startGateway({ bootstrapPath: keys.path, operatorToken: OPERATOR, rateLimits: { publicPerMinute: 100_000, keyPerMinute: 100_000 } });
});
afterAll(() => gw.close());

function credentials(route: RouteSpec): Record<string, string> {
  if (route.security === 'operator') return bearer(OPERATOR);
  if (route.visibility === 'public' || route.security === 'none' || route.security === 'wallet_session') return {};
  return bearer(key);
}

const stable = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => !VOLATILE.has(name)));

const GET_ROUTES = ROUTES.filter((r) => r.method === 'GET');

describe('HEAD on every GET route', () => {
  it('covers every GET row of the registry', () => {
    expect(GET_ROUTES.length).toBeGreaterThan(15);
  });

  it.each(GET_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, route) => {
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name] ?? 'x');
    const headers = credentials(route);
    const get = await gw.get(path, { headers });
    const getBody = await get.text();
    const head = await gw.get(path, { method: 'HEAD', headers });
    expect(head.status).toBe(get.status);
    expect(stable(head)).toEqual(stable(get));
    expect(await head.text()).toBe('');
    expect(head.headers.get('x-request-id')).toBeTruthy();
    // fetch decodes a br/gzip answer: its Content-Length is the encoded size, checked against identity too.
    if (get.headers.get('content-encoding')) {
      const identity = await gw.get(path, { headers: { ...headers, 'accept-encoding': 'identity' } });
      expect(identity.headers.get('content-encoding')).toBeNull();
      expect(Number(identity.headers.get('content-length'))).toBe(Buffer.byteLength(await identity.text()));
    } else if (get.headers.get('content-length')) expect(Number(get.headers.get('content-length'))).toBe(Buffer.byteLength(getBody));
  });

  it('HEAD /healthz, /readyz and /metrics answer like their GET', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const head = await gw.get(path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(stable(head)).toEqual(stable(await gw.get(path)));
      expect(await head.text()).toBe('');
    }
    const metrics = await gw.get('/metrics', { method: 'HEAD' });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toBe('');
  });
});
