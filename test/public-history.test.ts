import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
// A Wednesday mid-session, so equities have minute candles too.
const NOW = Date.parse('2026-11-18T17:00:30.000Z');

let gw: TestGateway;
beforeAll(async () => (gw = await startGateway({}, NOW)));
afterAll(() => gw.close());

const history = (asset: string, query = '') => gw.get(`/api/v1/public/markets/${asset}/history${query}`);

describe('GET /api/v1/public/markets/{asset}/history', () => {
  it('defaults to daily candles, 366 points at most, most recent last, a year and more stored', async () => {
    const res = await history('BTC');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.freshness.stale).toBe(false);
    expect(body.data).toMatchObject({ asset: 'BTC', marketId: 'BTC-PERP', resolution: '1d' });
    const points = body.data.points;
    expect(points).toHaveLength(366);
    const times = points.map((p: any) => Date.parse(p.time));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(DAY);
    expect(times.at(-1)).toBe(Math.floor(NOW / DAY) * DAY);
    expect(points.at(-1).closed).toBe(false);
    expect(points.at(-2).closed).toBe(true);
    for (const p of points) {
      expect(Number(p.high)).toBeGreaterThanOrEqual(Math.max(Number(p.open), Number(p.close)));
      expect(Number(p.low)).toBeLessThanOrEqual(Math.min(Number(p.open), Number(p.close)));
      expect(p.volume).toMatch(/^\d+(\.\d+)?$/);
    }
  });

  it('serves a day of minute candles and aggregates them into coarser buckets', async () => {
    const minutes = (await (await history('ETH-PERP', '?resolution=1m&limit=366')).json()).data.points;
    expect(minutes).toHaveLength(366);
    expect(Date.parse(minutes.at(-1).time)).toBe(Math.floor(NOW / MIN) * MIN);
    const fives = (await (await history('ETH-PERP', '?resolution=5m&limit=3')).json()).data.points;
    expect(fives).toHaveLength(3);
    const last = fives.at(-1);
    const inBucket = minutes.filter((m: any) => Date.parse(m.time) >= Date.parse(last.time));
    expect(last.open).toBe(inBucket[0].open);
    expect(last.close).toBe(inBucket.at(-1).close);
    expect(Math.max(...inBucket.map((m: any) => Number(m.high)))).toBe(Number(last.high));
    expect(Math.min(...inBucket.map((m: any) => Number(m.low)))).toBe(Number(last.low));
  });

  it('applies inclusive from/to bounds and lets the most recent points win the limit', async () => {
    const from = '2026-11-18T10:00:00Z';
    const to = '2026-11-18T14:00:00Z';
    const all = (await (await history('BTC', `?resolution=1h&from=${from}&to=${to}`)).json()).data.points;
    expect(all.map((p: any) => p.time)).toEqual([10, 11, 12, 13, 14].map((h) => `2026-11-18T${h}:00:00.000Z`));
    const limited = (await (await history('BTC', `?resolution=1h&from=${from}&to=${to}&limit=2`)).json()).data.points;
    expect(limited.map((p: any) => p.time)).toEqual(['2026-11-18T13:00:00.000Z', '2026-11-18T14:00:00.000Z']);
    const four = (await (await history('BTC', `?resolution=4h&from=2026-11-17T00:00:00Z&to=2026-11-17T23:59:59Z`)).json()).data.points;
    expect(four).toHaveLength(6);
  });

  it('keeps equities to their sessions: no candles are made up while the market is closed', async () => {
    const points = (await (await history('AAPL', '?resolution=1h&from=2026-11-15T00:00:00Z&to=2026-11-15T23:59:59Z')).json()).data.points;
    expect(points).toEqual([]); // a Sunday
    const weekday = (await (await history('AAPL', '?resolution=1h&from=2026-11-17T00:00:00Z&to=2026-11-17T23:59:59Z')).json()).data.points;
    expect(weekday.map((p: any) => new Date(p.time).getUTCHours())).toEqual([14, 15, 16, 17, 18, 19, 20]);
  });

  it('refuses a resolution finer than what is stored for the range, naming it', async () => {
    const res = await history('BTC', `?resolution=1m&from=${new Date(NOW - 10 * DAY).toISOString()}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('invalid_public_market_history_query');
    expect(body.message).toMatch(/resolution/);
    const hourly = await history('BTC', `?resolution=1h&from=${new Date(NOW - 200 * DAY).toISOString()}`);
    expect(hourly.status).toBe(400);
    const daily = await history('BTC', `?resolution=1d&from=${new Date(NOW - 2000 * DAY).toISOString()}`);
    expect(daily.status).toBe(200);
  });

  it.each([
    ['resolution', '?resolution=2m'],
    ['resolution', '?resolution='],
    ['limit', '?limit=0'],
    ['limit', '?limit=367'],
    ['limit', '?limit=1.5'],
    ['limit', '?limit=abc'],
    ['limit', '?limit=10&limit=20'],
    ['from', '?from=yesterday'],
    ['from', '?from=2026-11-18'],
    ['to', '?to=2026-13-01T00:00:00Z'],
    ['from', '?from=2026-11-18T12:00:00Z&to=2026-11-18T11:00:00Z'],
  ])('answers an invalid %s (%s) with 400 invalid_public_market_history_query', async (param, query) => {
    const res = await history('BTC', query);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'Bad Request', code: 'invalid_public_market_history_query', retryable: false });
    expect(body.message).toContain(param);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('validates before looking the market up, and answers an unknown market with a stale, empty 404 envelope', async () => {
    expect((await history('NOPE', '?limit=0')).status).toBe(400);
    const res = await history('NOPE', '?resolution=1h');
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.data.points).toEqual([]);
    expect(body.data.marketId).toBeNull();
    expect(body.freshness.stale).toBe(true);
    expect(body).not.toHaveProperty('code');
  });

  it('keeps the range bounds of the limit at 1 and 366', async () => {
    expect((await (await history('BTC', '?limit=1')).json()).data.points).toHaveLength(1);
    expect((await (await history('BTC', '?resolution=1m&limit=366')).json()).data.points).toHaveLength(366);
  });
});
