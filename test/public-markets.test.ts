import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
beforeAll(async () => (gw = await startGateway()));
afterAll(() => gw.close());

function expectEnvelope(body: any) {
  expect(typeof body.schemaVersion).toBe('string');
  expect(Number.isNaN(Date.parse(body.generatedAt))).toBe(false);
  expect(Number.isNaN(Date.parse(body.freshness.asOf))).toBe(false);
  expect(typeof body.freshness.stale).toBe('boolean');
  expect(['healthy', 'degraded', 'down', 'unknown']).toContain(body.freshness.sourceStatus);
  expect(body).toHaveProperty('data');
}

describe('GET /api/v1/public/markets', () => {
  it('lists every simulated market in a fresh envelope, with decimal strings', async () => {
    const res = await gw.get('/api/v1/public/markets');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = await res.json();
    expectEnvelope(body);
    expect(body.freshness).toMatchObject({ stale: false, sourceStatus: 'healthy', staleReason: null });
    const kinds = new Set(body.data.map((m: any) => m.kind));
    expect(kinds).toEqual(new Set(['perpetual', 'equity', 'swap_pool', 'lending']));
    for (const m of body.data) {
      expect(m.price).toMatch(/^\d+(\.\d+)?$/);
      expect(m.freshness.stale).toBe(false);
    }
    const btc = body.data.find((m: any) => m.id === 'BTC-PERP');
    expect(btc.fundingRate).toMatch(/^-?\d+\.\d+$/);
    expect(body.data.find((m: any) => m.id === 'USDC-LEND').supplyApy).toMatch(/^\d+\.\d+$/);
  });

  it('is cacheable only for what remains of the 60 s max age', async () => {
    gw.clock.advance(20_000);
    const res = await gw.get('/api/v1/public/markets');
    const body = await res.json();
    expect(body.freshness.freshnessMs).toBeGreaterThanOrEqual(20_000);
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(40);
  });

  it('turns stale once the snapshot is older than 60 000 ms, and fresh again after ingest', async () => {
    gw.clock.advance(41_000);
    const stale = await gw.get('/api/v1/public/markets');
    const body = await stale.json();
    expect(body.freshness.freshnessMs).toBeGreaterThan(60_000);
    expect(body.freshness).toMatchObject({ stale: true, staleReason: 'max_age_exceeded' });
    expect(stale.headers.get('cache-control')).toBe('no-cache');
    await gw.app.services.ingest.pollAll();
    expect((await (await gw.get('/api/v1/public/markets')).json()).freshness.stale).toBe(false);
  });
});

describe('GET /api/v1/public/markets/{asset}', () => {
  it('accepts a market id or an asset symbol, case-insensitively', async () => {
    for (const asset of ['BTC-PERP', 'BTC', 'btc']) {
      const res = await gw.get(`/api/v1/public/markets/${asset}`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expectEnvelope(body);
      expect(body.data.id).toBe('BTC-PERP');
    }
    expect((await (await gw.get('/api/v1/public/markets/AAPL')).json()).data.kind).toBe('equity');
  });

  it('answers an unknown market with a stale not-found envelope and status 404', async () => {
    const res = await gw.get('/api/v1/public/markets/DOGE-PERP');
    expect(res.status).toBe(404);
    const body = await res.json();
    expectEnvelope(body);
    expect(body.data).toBeNull();
    expect(body.freshness).toMatchObject({ stale: true, staleReason: 'not_found' });
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('marks a market stale with sourceStatus down when its venue is down, and recovers', async () => {
    await gw.setFault('paper-perps', 'down');
    const down = await (await gw.get('/api/v1/public/markets/ETH')).json();
    expect(down.freshness).toMatchObject({ stale: true, staleReason: 'source_down', sourceStatus: 'down' });
    const other = await (await gw.get('/api/v1/public/markets/AAPL')).json();
    expect(other.freshness.stale).toBe(false);
    const list = await (await gw.get('/api/v1/public/markets')).json();
    expect(list.freshness).toMatchObject({ stale: true, sourceStatus: 'down' });

    await gw.setFault('paper-perps', 'degraded');
    const degraded = await (await gw.get('/api/v1/public/markets/ETH')).json();
    expect(degraded.freshness).toMatchObject({ stale: false, sourceStatus: 'degraded' });

    await gw.setFault('paper-perps', 'none');
    expect((await (await gw.get('/api/v1/public/markets/ETH')).json()).freshness.sourceStatus).toBe('healthy');
  });
});

describe('cache-first', () => {
  it('answers every public route from the snapshot cache: no request reaches a venue', async () => {
    const reads = gw.app.services.sources.map((s) => {
      const original = s.read.bind(s);
      let count = 0;
      s.read = async (now) => (count++, original(now));
      return () => count;
    });
    const paths = [
      'markets',
      'markets/BTC',
      'markets/ETH/history?resolution=1h',
      'markets/AAPL/orderbook',
      'protocols/paper-swap',
      'status',
      'data/markets.json',
      'data/protocols.json',
    ];
    for (const p of paths) expect((await gw.get(`/api/v1/public/${p}`)).status).toBe(200);
    expect(reads.map((count) => count())).toEqual([0, 0, 0, 0]);
  });
});

describe('GET /api/v1/public/data/markets.json', () => {
  it('mirrors the markets list and answers If-None-Match with 304', async () => {
    const res = await gw.get('/api/v1/public/data/markets.json');
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    const mirror = await res.json();
    const list = await (await gw.get('/api/v1/public/markets')).json();
    expect(mirror.data).toEqual(list.data.map((m: any) => ({ ...m, freshness: { ...m.freshness, freshnessMs: expect.any(Number) } })));

    const again = await gw.get('/api/v1/public/data/markets.json', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');

    gw.clock.advance(1_000);
    await gw.app.services.ingest.pollAll();
    const changed = await gw.get('/api/v1/public/data/markets.json', { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});
