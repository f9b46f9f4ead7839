import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLE, RouteTable, type ServedRoute } from '../src/contract/route-table.js';
import { ENDPOINTS } from '../src/contract/routes/endpoints.js';
import { gatewayStages } from '../src/http/pipeline/gateway-stages.js';
import { LifecycleState } from '../src/http/operations/readiness.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';

const silent = pino({ level: 'silent' });
const stages = gatewayStages({
  lifecycle: new LifecycleState(),
  corsOrigins: [],
  maxBodyBytes: 1024,
  rateLimits: {} as never,
  authenticator: {} as never,
  operator: {} as never,
  restSchema: () => ({}) as never,
  logger: silent,
});
const planOf = (route: ServedRoute) => stages.filter((s) => s.appliesTo(route)).map((s) => s.name);
const row = (method: string, template: string) => ROUTE_TABLE.find((r) => r.method === method && r.template === template)!;

describe('one list of stages, each route running those that apply to it', () => {
  it('states the order once', () => {
    expect(stages.map((s) => s.name)).toEqual([
      'starting',
      'cors',
      'bodyAdmission',
      'routeParameters(public)',
      'rateLimit',
      'authFirst',
      'routeParameters(guarded)',
      'jsonBody',
      'strictBody',
    ]);
  });

  it('a public read takes the short way by construction: no body, no credential, no JSON stages', () => {
    expect(planOf(row('GET', '/api/v1/public/markets/{asset}'))).toEqual(['starting', 'cors', 'routeParameters(public)', 'rateLimit']);
  });

  it('an execution meets every stage, the credential before its body is read as JSON', () => {
    expect(planOf(row('POST', '/api/v1/execute'))).toEqual([
      'starting',
      'cors',
      'bodyAdmission',
      'rateLimit',
      'authFirst',
      'routeParameters(guarded)',
      'jsonBody',
      'strictBody',
    ]);
  });

  it('the probes answer while starting, unlimited; GraphQL is limited and checked for JSON', () => {
    expect(planOf(row('GET', '/healthz'))).toEqual([]);
    expect(planOf(row('GET', '/readyz'))).toEqual([]);
    expect(planOf(row('GET', '/metrics'))).toEqual([]);
    expect(planOf(row('POST', '/graphql'))).toEqual(['starting', 'cors', 'bodyAdmission', 'rateLimit', 'jsonBody']);
    expect(planOf(row('POST', '/mcp'))).toEqual(['starting', 'bodyAdmission']);
    expect(planOf(row('GET', '/dashboard'))).toEqual(['starting']);
  });
});

describe('every route the server answers is a row of the one route table', () => {
  let gw: TestGateway;
  let keys: BootstrapKeys;
  beforeAll(async () => {
    keys = writeBootstrap();
    gw = await startGateway({ bootstrapPath: keys.path });
  });
  afterAll(() => gw?.close());

  it('resolves each endpoint to its row, and a path beside one to no row', () => {
    const table = new RouteTable();
    for (const endpoint of ENDPOINTS) {
      for (const method of endpoint.methods) expect(table.resolve(method, endpoint.path).route.serves).toBe(endpoint.serves);
      expect(table.resolve('GET', `${endpoint.path}x`).route.serves).toBe('unserved');
    }
    expect(table.resolve('GET', '/dashboard/assets/app.js').route.serves).toBe('dashboard');
    expect(table.resolve('GET', '/openapi.public.json').route.template).toBe('/api/v1/public/openapi.public.json');
  });

  it.each(ENDPOINTS.map((e) => [e.path, e] as const))(
    '%s answers through the pipeline, with a request id; a method it lacks is a 405',
    async (path, endpoint) => {
      const res = await gw.get(path, { headers: bearer(keys.full) });
      expect(res.status).not.toBe(404);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      const missing = ['GET', 'POST', 'DELETE', 'PATCH'].find((m) => !endpoint.methods.includes(m as never));
      if (missing) {
        const refused = await gw.get(path, { method: missing, headers: bearer(keys.full) });
        expect(refused.status).toBe(405);
        expect((await refused.json()).code).toBe('method_not_allowed');
      }
    },
  );

  it('an MCP tool call meets the same stages as the HTTP request it stands for (the same refusal)', async () => {
    const over = await gw.get('/api/v1/data/perps/price/BTC', { headers: bearer('not-a-key-at-all-0000') });
    const viaMcp = await gw.get('/mcp', {
      method: 'POST',
      headers: { ...bearer('not-a-key-at-all-0000'), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(viaMcp.status).toBe(over.status);
    expect((await viaMcp.json()).code).toBe((await over.json()).code);
  });
});

/** Source files under a folder, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('errors are made by the factories of src/errors', () => {
  it('no GatewayError is constructed, and no error body written, outside src/errors', () => {
    const offenders = ['src', 'resolvers', 'schema']
      .flatMap(sources)
      .filter((file) => !file.startsWith(join('src', 'errors')))
      .filter((file) => /new GatewayError\(|errorBodyOf\(|errorResponse\(/.test(readFileSync(file, 'utf8')))
      // The one place an answer is made from a refusal.
      .filter((file) => file !== join('src', 'http', 'pipeline', 'answer.ts'));
    expect(offenders).toEqual([]);
  });

  it('the composition root stays one short file, the planes beside it', () => {
    expect(readFileSync('src/app.ts', 'utf8').split('\n').length).toBeLessThan(300);
  });
});
