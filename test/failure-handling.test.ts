import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/gateway-config.js';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

describe('failures reach clients as clean error responses', () => {
  it('masks an unexpected internal error as 500 internal_error without stack or paths, and logs it with the request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
    gw = await startGateway({}, Date.now(), { logger: pino({ level: 'info' }, sink) });
    gw.app.stores.cache.getMarkets = async () => {
      throw new Error('boom at /work/main/src/secret.ts:12:3');
    };
    const res = await gw.get('/api/v1/public/markets');
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'Internal Server Error', code: 'internal_error', message: 'Unexpected error.', retryable: true });
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
    expect(JSON.stringify(body)).not.toMatch(/boom|secret|\/work\//);
    // The operator finds the cause from the id the client was given.
    const logged = lines.find((l) => l.requestId === body.requestId && JSON.stringify(l.err ?? '').includes('boom'));
    expect(logged, JSON.stringify(lines.slice(-5))).toBeDefined();

    const gql = await (
      await gw.get('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ markets { freshness { stale } } }' }),
      })
    ).json();
    expect(JSON.stringify(gql)).not.toMatch(/boom|secret|\/work\/|stack/);
  });

  it('answers a malformed JSON body on /graphql with a 4xx, not a crash', async () => {
    gw = await startGateway();
    const res = await gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('simulated venue faults from configuration', () => {
  it('GATEWAY_SIM_FAULTS starts a venue down: its books are 503 and its markets stale', async () => {
    const { simulatedFaults } = loadConfig({ GATEWAY_SIM_FAULTS: 'paper-perps=down,paper-swap=degraded' });
    expect(simulatedFaults).toEqual({ 'paper-perps': 'down', 'paper-swap': 'degraded' });
    gw = await startGateway({ simulatedFaults });
    expect((await gw.get('/api/v1/public/markets/BTC/orderbook')).status).toBe(503);
    const market = await (await gw.get('/api/v1/public/markets/BTC')).json();
    expect(market.freshness).toMatchObject({ stale: true, sourceStatus: 'down' });
    const status = await (await gw.get('/api/v1/public/status')).json();
    expect(status.data.cache.state).toBe('partial');
    expect(status.data.sources.find((s: any) => s.sourceId === 'paper-swap').status).toBe('degraded');
  });

  it('rejects a malformed configuration with a message naming the variable', () => {
    expect(() => loadConfig({ GATEWAY_SIM_FAULTS: 'paper-perps=broken' })).toThrow(/GATEWAY_SIM_FAULTS/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
