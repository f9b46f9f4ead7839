import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config/gateway-config.js';
import { ENDPOINTS } from '../src/contract/routes/endpoints.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { bearer, writeBootstrap } from './support/keys.js';

/**
 * /healthz, /readyz and /metrics through a real server: never rate limited, absent from both
 * contract documents, readiness false while starting, draining or with the store gone; one access
 * log line per request with its request id and route template, never a credential.
 */
describe('operations routes', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    const keys = writeBootstrap();
    key = keys.full;
    gw = await startGateway({ bootstrapPath: keys.path, rateLimits: { publicPerMinute: 2, keyPerMinute: 2 } });
  });
  afterAll(() => gw.close());

  it('are in neither contract document', async () => {
    const publicDoc = await (await gw.get('/api/v1/public/openapi.public.json')).json();
    const fullDoc = await (await gw.get('/api/v1/openapi.json', { headers: bearer(key) })).json();
    for (const doc of [publicDoc, fullDoc]) {
      expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
      for (const { path } of ENDPOINTS) expect(doc.paths[path]).toBeUndefined();
    }
  });

  it('/healthz and /readyz answer 200 without rate limits, as often as asked, also once the client is limited', async () => {
    let status = 200;
    for (let i = 0; i < 5 && status !== 429; i++) status = (await gw.get('/api/v1/public/status')).status;
    expect(status).toBe(429);
    for (let i = 0; i < 5; i++) {
      for (const path of ['/healthz', '/readyz']) {
        const res = await gw.get(path);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit')).toBeNull();
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('x-request-id')).toBeTruthy();
      }
    }
    expect(await (await gw.get('/healthz')).json()).toEqual({ status: 'ok' });
    expect(await (await gw.get('/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('answer another method with a JSON 405', async () => {
    const res = await gw.get('/readyz', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toMatchObject({ code: 'method_not_allowed', requestId: res.headers.get('x-request-id') });
  });

  it('/metrics: requests by route template and status, open subscriptions, ingest lag, source status, shared state', async () => {
    // The client is over its public limit (test above): these are counted as 429s of their template.
    await gw.get('/api/v1/public/markets/ETH');
    await gw.get('/api/v1/public/markets/nope');
    await gw.get('/api/v1/data/perps/price/BTC');
    const res = await gw.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('gateway_http_request_duration_seconds_count{method="GET",route="/api/v1/public/markets/{asset}",status="429"} 2');
    expect(text).toContain('gateway_http_request_duration_seconds_count{method="GET",route="/api/v1/public/status",status="429"} 1');
    expect(text).toMatch(/gateway_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/data\/perps\/price\/\{asset\}",status="(401|429)"\} 1/);
    expect(text).toMatch(/gateway_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} [1-9]/);
    expect(text).toContain('gateway_graphql_ws_sockets_open 0');
    expect(text).toContain('gateway_sse_streams_open 0');
    expect(text).toContain('gateway_shared_state_connected 1');
    expect(text).toMatch(/gateway_ingest_lag_seconds\{source="paper-perps"\} \d/);
    expect(text).toContain('gateway_source_status{source="paper-perps",status="healthy"} 1');
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('/readyz is 503 with its reasons while draining', async () => {
    gw.app.lifecycle.draining = true;
    try {
      const res = await gw.get('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'not_ready', retryable: true, details: { reasons: ['draining'] } });
      expect((await gw.get('/healthz')).status).toBe(200);
    } finally {
      gw.app.lifecycle.draining = false;
    }
  });

  it('/readyz is 503 while starting, and every other route answers 503 starting with Retry-After', async () => {
    gw.app.lifecycle.started = false;
    try {
      const ready = await gw.get('/readyz');
      expect(ready.status).toBe(503);
      expect((await ready.json()).details.reasons).toEqual(['starting']);
      const route = await gw.get('/api/v1/public/markets');
      expect(route.status).toBe(503);
      expect(route.headers.get('retry-after')).toBe('1');
      expect(await route.json()).toMatchObject({ code: 'starting', retryable: true });
    } finally {
      gw.app.lifecycle.started = true;
    }
  });
});

describe('/readyz with the embedded database', () => {
  it('is 503 store_unavailable once the SQLite database cannot answer', async () => {
    const gw = await startGateway({ dataDir: mkdtempSync(join(tmpdir(), 'gw-ready-')) });
    try {
      expect((await gw.get('/readyz')).status).toBe(200);
      await gw.app.stores.close();
      const res = await gw.get('/readyz');
      expect(res.status).toBe(503);
      expect((await res.json()).details.reasons).toEqual([expect.stringMatching(/^store_unavailable: /)]);
    } finally {
      await gw.close().catch(() => undefined);
    }
  });
});

describe('/metrics with GATEWAY_METRICS_TOKEN', () => {
  it('answers 401 without the token and 200 with it; counts GraphQL operations by way in', async () => {
    const gw = await startGateway({ metricsToken: 'metrics-token-0123456789' });
    try {
      const denied = await gw.get('/metrics');
      expect(denied.status).toBe(401);
      expect(await denied.json()).toMatchObject({ code: 'unauthorized' });
      expect((await gw.get('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789x' } })).status).toBe(401);
      await gw.get('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ market(asset: "BTC") { data { id } } }' }),
      });
      expect((await gw.get('/api/v1/public/markets/BTC')).status).toBe(200); // executed: nothing remembered yet
      await gw.get('/api/v1/public/protocols/paper-perps/x'); // 404 before any execution
      await gw.get('/api/v1/data/portfolio'); // 401 at the edge (auth first): nothing executed
      const allowed = await gw.get('/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(allowed.status).toBe(200);
      const text = await allowed.text();
      expect(text).toContain('gateway_graphql_operations_total{type="query",via="graphql"} 1');
      expect(text).toContain('gateway_graphql_operations_total{type="query",via="rest"} 1');
    } finally {
      await gw.close();
    }
  });
});

describe('/metrics: execute outcomes, rate-limit rejections, store latency', () => {
  it('counts a refused execute by its code, a 429 by its policy, and times identity and execution store calls', async () => {
    const keys = writeBootstrap();
    const gw = await startGateway({ bootstrapPath: keys.path, rateLimits: { publicPerMinute: 1, keyPerMinute: 100 } }, SESSION_TIME);
    try {
      // An execute with no preview is refused (QUOTE_STALE or a policy code): counted as refused with that code.
      const refused = await call(gw, 'POST', '/api/v1/execute', keys.full, perpOrder('m-refused'));
      const code = ((await refused.json()) as { code: string }).code;
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect((await gw.get('/api/v1/public/status')).status).toBe(200);
      expect((await gw.get('/api/v1/public/status')).status).toBe(429);
      const text = await (await gw.get('/metrics')).text();
      expect(text).toContain(`gateway_execute_outcomes_total{outcome="refused",code="${code}"} 1`);
      expect(text).toContain('gateway_rate_limit_rejections_total{policy="public"} 1');
      expect(text).toMatch(/gateway_store_call_duration_seconds_count\{store="identities",method="findKeyByHash",ok="true"\} [1-9]/);
      expect(text).toMatch(/gateway_store_call_duration_seconds_count\{store="[a-zA-Z]+",method="[a-zA-Z]+",ok="true"\} [1-9]/);
    } finally {
      await gw.close();
    }
  });
});

/** A pino destination that keeps every line written to it, parsed. */
function logLines() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { lines, sink };
}

describe('access log', () => {
  it('one line per request with the request id (echoed in x-request-id), route template, status and duration; never a credential', async () => {
    const { lines, sink } = logLines();
    const keys = writeBootstrap();
    const app = buildApp(testConfig({ bootstrapPath: keys.path }), { logger: pino({ level: 'info' }, sink) });
    await app.start({ ingest: false });
    const server = app.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const mine = await fetch(`${base}/api/v1/data/perps/price/BTC`, { headers: { ...bearer(keys.full), 'x-request-id': 'client-req-0001' } });
      expect(mine.status).toBe(200);
      expect(mine.headers.get('x-request-id')).toBe('client-req-0001');
      const head = await fetch(`${base}/api/v1/public/markets/BTC`, { method: 'HEAD' });
      const denied = await fetch(`${base}/api/v1/data/portfolio`, { headers: { authorization: 'Bearer tgw_not-a-real-key-but-secret' } });
      expect(denied.status).toBe(401);
      await new Promise((r) => setTimeout(r, 50));
      const access = lines.filter((l) => l.msg === 'request completed');
      expect(access).toHaveLength(3);
      expect(access[0]).toMatchObject({
        requestId: 'client-req-0001',
        req: { method: 'GET', url: '/api/v1/data/perps/price/BTC', route: '/api/v1/data/perps/price/{asset}' },
        res: { statusCode: 200, keyId: 'k-full' },
      });
      expect(access[0]!.responseTime).toEqual(expect.any(Number));
      expect(access[1]).toMatchObject({ requestId: head.headers.get('x-request-id'), req: { method: 'HEAD', route: '/api/v1/public/markets/{asset}' } });
      expect(access[2]).toEqual(expect.objectContaining({ requestId: denied.headers.get('x-request-id'), res: { statusCode: 401 } }));
      const all = JSON.stringify(lines);
      expect(all).not.toContain(keys.full);
      expect(all).not.toContain('not-a-real-key-but-secret');
      expect(all.toLowerCase()).not.toContain('authorization');
    } finally {
      await app.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a probe's 503 while starting is a completed request at info level, with no error; another route's 503 is a failure", async () => {
    const { lines, sink } = logLines();
    // Never started: every route but the probes answers 503 `starting`, the probes say why.
    const app = buildApp(testConfig(), { logger: pino({ level: 'info' }, sink) });
    const server = app.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      expect((await fetch(`${base}/readyz`)).status).toBe(503);
      expect((await fetch(`${base}/api/v1/public/status`)).status).toBe(503);
      // Each line is written when its response closes, which may be just after the client has it.
      await vi.waitFor(() => expect(lines.filter((l) => l.msg === 'request completed' || l.msg === 'request failed')).toHaveLength(2));
      const probe = lines.find((l) => (l.req as { route?: string } | undefined)?.route === '/readyz');
      expect(probe).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 503 } });
      expect(probe).not.toHaveProperty('err');
      const other = lines.find((l) => (l.req as { url?: string } | undefined)?.url === '/api/v1/public/status');
      expect(other).toMatchObject({ level: 50, msg: 'request failed', res: { statusCode: 503 } });
    } finally {
      await app.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
