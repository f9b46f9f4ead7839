import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAlpacaReplay, type AlpacaReplay } from '../../src/venues/alpaca/replay/alpaca-replay.js';
import type { WireBar } from '../../src/venues/alpaca/replay/market-data-store.js';
import { writeBootstrap } from '../support/keys.js';
import { loopbackOnly } from '../support/loopback-only.js';
import { eventually, startVenueGateway, type VenueGateway } from '../support/venue-gateway.js';

/**
 * Issue 25, point 3: the gateway's equities from Alpaca through its real SDK, against the local
 * wire fake serving the recorded literals (test/fixtures/alpaca). The operator's keys turn the
 * venue on; its URLs point it at the fake. Every fault the fake can play ends in a true envelope,
 * within the request budget, and no credential ever shows.
 */
const KEY_ID = 'PKREPLAYKEYID00001';
const SECRET = 'replay-secret-never-to-be-shown';
const BUDGET = 120;
const venueEnv = (fake: AlpacaReplay, extra: Record<string, string> = {}) => ({
  ALPACA_KEY_ID: KEY_ID,
  ALPACA_SECRET_KEY: SECRET,
  ALPACA_TRADING_URL: fake.urls.trading,
  ALPACA_DATA_URL: fake.urls.data,
  ALPACA_DATA_STREAM_URL: fake.urls.dataStreamHost,
  ALPACA_POLL_MS: '1000',
  ALPACA_TIMEOUT_MS: '1000',
  ALPACA_REQUESTS_PER_MINUTE: String(BUDGET),
  ...extra,
});
const startFake = () => startAlpacaReplay({ keyId: KEY_ID, secret: SECRET });

// Nothing may leave the machine: a request to another host fails the test that made it.
loopbackOnly();

/** The most requests the fake saw (both APIs) in any sliding minute. */
function peakPerMinute(fake: AlpacaReplay): number {
  const times = fake.controls.http.requests().map((r) => r.at);
  return Math.max(0, ...times.map((t) => times.filter((o) => o > t - 60_000 && o <= t).length));
}

async function sourceOf(gw: VenueGateway): Promise<any> {
  const status = await gw.json('/api/v1/public/status');
  return status.body.data.sources.find((s: any) => s.sourceId === 'alpaca');
}

const recordedAapl = (JSON.parse(readFileSync(new URL('../fixtures/alpaca/stocks-snapshots.json', import.meta.url), 'utf8')) as any).response.AAPL;

/** Public reads during a fault: only the contract's statuses (200, 503 for a book). */
async function expectContractStatuses(gw: VenueGateway): Promise<void> {
  for (const path of [
    '/api/v1/public/markets',
    '/api/v1/public/markets/AAPL',
    '/api/v1/public/markets/AAPL/history?resolution=1h&limit=5',
    '/api/v1/public/status',
  ]) {
    const res = await gw.get(path);
    expect(res.status, path).toBe(200);
    expect((await res.json()).freshness, path).toMatchObject({ asOf: expect.any(String), stale: expect.any(Boolean) });
  }
  expect([200, 503]).toContain((await gw.get('/api/v1/public/markets/AAPL/orderbook')).status);
}

describe('Alpaca as the equities venue', () => {
  let fake: AlpacaReplay;
  let gw: VenueGateway;
  const keys = writeBootstrap();
  beforeAll(async () => {
    fake = await startFake();
    gw = await startVenueGateway({ venueEnv: venueEnv(fake), bootstrapPath: keys.path });
    // Its first poll may miss the 1 s timeout on a busy machine: the next one lists the markets.
    await eventually(async () => (await gw.json('/api/v1/public/markets/AAPL')).status === 200, 10_000, 'the listing');
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('lists the symbols the venue knows, with its recorded figures and its own time, and says the venue is real (never its keys)', async () => {
    const equities = (await gw.json('/api/v1/public/markets')).body.data.filter((m: any) => m.kind === 'equity');
    // NVDA is in the default list, but the fake has no data for it: not listed rather than made up.
    expect(equities.map((m: any) => m.id).sort()).toEqual(['AAPL-USD', 'MSFT-USD', 'SPY-USD', 'TSLA-USD']);
    expect(equities.every((m: any) => m.protocol === 'alpaca' && m.quote === 'USD' && m.hasOrderBook)).toBe(true);

    const aapl = await gw.json('/api/v1/public/markets/AAPL');
    expect(aapl.body.data).toMatchObject({
      id: 'AAPL-USD',
      price: '161.1998', // the recorded last trade
      change24hPct: '0.3610', // from the recorded previous close, 160.62
      high24h: '161.92', // the recorded daily bar's range
      low24h: '159.76',
      fundingRate: null,
      sessionOpen: true, // the fake's market clock is open
    });
    // The daily bar's notional: its volume at its VWAP.
    expect(Number(aapl.body.data.volume24h)).toBeCloseTo(recordedAapl.dailyBar.v * recordedAapl.dailyBar.vw, 1);
    // The venue's own time (the 2022 trade), so the recording says it is stale.
    expect(aapl.body.freshness).toMatchObject({ asOf: '2022-03-18T14:33:58.448Z', stale: true, staleReason: 'max_age_exceeded', sourceStatus: 'healthy' });

    const nvda = await gw.json('/api/v1/public/markets/NVDA');
    expect(nvda.status).toBe(404);
    expect(nvda.body.freshness).toMatchObject({ stale: true, staleReason: 'not_found' });

    const status = await gw.get('/api/v1/public/status');
    const text = await status.text();
    expect(text).not.toContain(KEY_ID);
    expect(text).not.toContain(SECRET);
    const venues = Object.fromEntries(JSON.parse(text).data.venues.map((v: any) => [v.id, v]));
    expect(venues.alpaca).toMatchObject({ kind: 'equities', mode: 'real', network: 'paper', upstream: new URL(fake.urls.data).host });
    expect(venues['paper-equities']).toBeUndefined();
    const protocols = (await gw.json('/api/v1/public/data/protocols.json')).body.data.map((p: any) => p.id);
    expect(protocols).toContain('alpaca');
    expect(protocols).not.toContain('paper-equities');
  });

  it('gives the order book the venue has: its top of book, one level a side at the quote’s time', async () => {
    const book = await gw.json('/api/v1/public/markets/AAPL/orderbook');
    expect(book.status).toBe(200);
    expect(book.body.data.bids).toEqual([{ price: '161.19', size: '5', cumulativeSize: '5' }]);
    expect(book.body.data.asks).toEqual([{ price: '161.2', size: '2', cumulativeSize: '2' }]);
    expect(book.body.freshness.asOf).toBe('2022-03-18T14:33:58.547Z');
  });

  it('a trade and a quote published on the stream reach the market, timed by the venue; paper orders fill against that top of book', async () => {
    await eventually(() => fake.controls.streams.dataSubscriptions().trades?.includes('AAPL'), 10_000, 'the stream subscribed');
    const moved = fake.controls.market.setPrice('AAPL', 190.5);
    const aapl = await eventually(
      async () => {
        const res = await gw.json('/api/v1/public/markets/AAPL');
        return res.body.data.price === '190.5' ? res.body : undefined;
      },
      5_000,
      'the streamed trade',
    );
    expect(aapl.freshness.asOf).toBe(new Date(Date.parse(moved.trade.t)).toISOString());
    expect(aapl.freshness.stale).toBe(false);
    const book = (await gw.json('/api/v1/public/markets/AAPL/orderbook')).body;
    expect(book.data).toMatchObject({ bids: [{ price: '190.49', size: '1' }], asks: [{ price: '190.51', size: '1' }] });
    expect(book.freshness.asOf).toBe(new Date(Date.parse(moved.quote.t)).toISOString());

    // Execution stays paper: two shares against an ask of one fill one, the rest is cancelled.
    const res = await gw.get('/api/v1/execute/preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.full}` },
      body: JSON.stringify({
        protocol: 'alpaca',
        action: 'place_order',
        assetIn: { token: 'AAPL', amount: '2' },
        metadata: { side: 'buy', type: 'market' },
        referenceId: 'alpaca-preview-1',
      }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).quote).toMatchObject({ price: '190.51', expectedFilledAmount: '1', expectedFillState: 'partially_filled' });
  });

  it('a minute bar published on the stream is stored as the venue’s candle', async () => {
    const start = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
    const bar: WireBar = { t: new Date(start).toISOString(), o: 190.1, h: 190.9, l: 189.95, c: 190.5, v: 1234, n: 17, vw: 190.4 };
    fake.controls.market.publishBar('AAPL', bar, 'b');
    const points = await eventually(
      async () => {
        const res = await gw.json('/api/v1/public/markets/AAPL/history?resolution=1m&limit=5');
        return res.body.data.points.some((p: any) => Date.parse(p.time) === start) ? res.body.data.points : undefined;
      },
      5_000,
      'the streamed minute',
    );
    expect(points.find((p: any) => Date.parse(p.time) === start)).toMatchObject({
      open: '190.1',
      high: '190.9',
      low: '189.95',
      close: '190.5',
      volume: '1234',
    });
  });

  it('sessionOpen follows the venue’s market clock (open at first, above)', async () => {
    fake.controls.clock.setMarketOpen(false);
    await eventually(async () => (await gw.json('/api/v1/public/markets/MSFT')).body.data.sessionOpen === false, 10_000, 'the session closed');
    expect(fake.controls.http.requests({ api: 'trading' }).every((r) => r.path === '/v2/clock')).toBe(true);
  });

  it('kept within its request budget', () => {
    expect(fake.controls.http.refusedUrls()).toEqual([]);
    expect(peakPerMinute(fake)).toBeLessThanOrEqual(BUDGET);
    expect(fake.controls.http.requests().every((r) => r.headers['apca-api-key-id'] === KEY_ID)).toBe(true);
  });
});

describe('history from the venue', () => {
  let fake: AlpacaReplay;
  let gw: VenueGateway | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-alpaca-history-'));
  const MINUTE = 60_000;
  const DAY = 86_400_000;
  const now = Date.now();
  // Recent bars at the fake: a minute every third one for three hours (none between: no trade), thirty days.
  const minutes: WireBar[] = Array.from({ length: 60 }, (_, i) => {
    const t = Math.floor(now / MINUTE) * MINUTE - (180 - 3 * i) * MINUTE;
    return { t: new Date(t).toISOString(), o: 100 + i, h: 101 + i, l: 99 + i, c: 100.5 + i, v: 1000 + i, n: 10, vw: 100.25 + i };
  });
  const days: WireBar[] = Array.from({ length: 30 }, (_, i) => {
    const t = Math.floor(now / DAY) * DAY - (31 - i) * DAY + 5 * 3_600_000; // New York midnight (EST)
    return { t: new Date(t).toISOString(), o: 50 + i, h: 52 + i, l: 49 + i, c: 51 + i, v: 1_000_000, n: 1000, vw: 50.5 + i };
  });

  beforeAll(async () => {
    fake = await startFake();
    fake.controls.market.setBars('AAPL', '1Min', minutes);
    fake.controls.market.setBars('AAPL', '1Day', days);
  });
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });
  afterAll(() => fake?.close());

  it('serves the venue’s own bars after the backfill: sparse minutes stay sparse, days by their date', async () => {
    gw = await startVenueGateway({ dataDir, venueEnv: venueEnv(fake, { ALPACA_SYMBOLS: 'AAPL,MSFT' }) });
    const points = await eventually(
      async () => {
        const res = await gw!.json('/api/v1/public/markets/AAPL/history?resolution=1m&limit=366');
        return !gw!.app.services.history.backfilling('AAPL-USD') && res.body.data.points.length > 0 ? res.body.data.points : undefined;
      },
      10_000,
      'AAPL minutes',
    );
    expect(points.map((p: any) => Date.parse(p.time))).toEqual(minutes.map((b) => Date.parse(b.t)));
    expect(points[0]).toMatchObject({ open: '100', high: '101', low: '99', close: '100.5', volume: '1000' });
    const daily = (await gw.json('/api/v1/public/markets/AAPL/history?resolution=1d&limit=366')).body.data.points;
    const byDate = new Map(daily.map((p: any) => [p.time.slice(0, 10), p]));
    for (const day of days) expect(byDate.get(day.t.slice(0, 10)), day.t).toMatchObject({ open: String(day.o), close: String(day.c) });
    const bars = fake.controls.http.requests({ path: '/v2/stocks/bars' });
    expect(new Set(bars.map((r) => r.query.timeframe))).toEqual(new Set(['1Min', '1Hour', '1Day']));
    expect(bars.every((r) => r.query.feed === 'iex' && r.query.adjustment === 'raw')).toBe(true);
  });

  it('keeps its history across a restart and resumes from the newest stored bar', async () => {
    gw = await startVenueGateway({ dataDir, venueEnv: venueEnv(fake, { ALPACA_SYMBOLS: 'AAPL,MSFT' }) });
    await eventually(() => !gw!.app.services.history.backfilling('AAPL-USD'), 10_000, 'AAPL history');
    const before = (await gw.json('/api/v1/public/markets/AAPL/history?resolution=1m&limit=366')).body.data.points;
    await gw.close();
    fake.controls.http.clearRequests();
    gw = await startVenueGateway({ dataDir, venueEnv: venueEnv(fake, { ALPACA_SYMBOLS: 'AAPL,MSFT' }) });
    // Served from disk, the same minutes, before the venue is asked again.
    const after = (await gw.json('/api/v1/public/markets/AAPL/history?resolution=1m&limit=366')).body.data.points;
    expect(after).toEqual(before);
    const resumed = await eventually(
      () => fake.controls.http.requests({ path: '/v2/stocks/bars' }).find((r) => r.query.symbols === 'AAPL' && r.query.timeframe === '1Min'),
      10_000,
      'the resumed minutes of AAPL',
    );
    // From the newest stored minute, not two days back.
    expect(Date.parse(resumed.query.start!)).toBe(Date.parse(minutes.at(-1)!.t));
  });
});

describe('faults at the venue', () => {
  let fake: AlpacaReplay;
  let gw: VenueGateway;
  const logs: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) });
  beforeAll(async () => {
    fake = await startFake();
    gw = await startVenueGateway({ venueEnv: venueEnv(fake, { ALPACA_SYMBOLS: 'AAPL,MSFT' }) }, logger);
    await eventually(async () => (await sourceOf(gw))?.status === 'healthy', 10_000, 'a healthy venue');
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });
  afterEach(async () => {
    fake.controls.http.clearFaults();
    await eventually(async () => (await sourceOf(gw)).status === 'healthy', 10_000, 'recovery');
  });

  const snapshots = { api: 'data' as const, path: '/v2/stocks/snapshots' };

  it('a 429 with Retry-After: degraded, every request paused by it (no retry storm), then healthy again', async () => {
    const armedAt = Date.now();
    fake.controls.http.rateLimit({ ...snapshots, retryAfterSeconds: 3 });
    const degraded = await eventually(
      async () => {
        const s = await sourceOf(gw);
        return s.status === 'degraded' && /429/.test(s.lastError) ? s : undefined;
      },
      5_000,
      'degraded by a 429',
    );
    expect(degraded.lastError).toMatch(/429/);
    await expectContractStatuses(gw);
    await eventually(async () => (await sourceOf(gw)).status === 'healthy', 8_000, 'healthy after the pause');
    const requests = fake.controls.http.requests();
    const limited = requests.find((r) => r.path === snapshots.path && r.at >= armedAt)!;
    const next = requests.find((r) => r.at > limited.at)!;
    expect(next.at - limited.at).toBeGreaterThanOrEqual(2_900);
  });

  it('500s: degraded at the first, down after three failed polls, the markets stale with the source down', async () => {
    fake.controls.http.serverError({ ...snapshots, times: 3 });
    await eventually(async () => (await sourceOf(gw)).status === 'down', 10_000, 'down after three failures');
    const aapl = (await gw.json('/api/v1/public/markets/AAPL')).body;
    expect(aapl.freshness).toMatchObject({ stale: true, staleReason: 'source_down', sourceStatus: 'down' });
    await expectContractStatuses(gw);
  });

  it('an answer that hangs past the timeout, malformed JSON, and an HTML page instead of JSON: degraded, said plainly, never a crash', async () => {
    for (const [inject, said] of [
      [() => fake.controls.http.hang(snapshots), /timeout/],
      [() => fake.controls.http.malformedJson(snapshots), /not valid JSON/],
      [() => fake.controls.http.wrongContentType(snapshots), /not valid JSON/],
    ] as const) {
      inject();
      const s = await eventually(
        async () => {
          const source = await sourceOf(gw);
          return source.status === 'degraded' && said.test(source.lastError) ? source : undefined;
        },
        8_000,
        `degraded (${said.source})`,
      );
      expect(s.lastError).not.toMatch(/<html|stack|at \w+ \(/);
      await expectContractStatuses(gw);
      await eventually(async () => (await sourceOf(gw)).status === 'healthy', 8_000, 'healthy again');
    }
  });

  it('a stream cut reconnects (counted in /metrics) and prices flow again', async () => {
    await eventually(() => fake.controls.streams.dataSubscriptions().trades?.includes('MSFT'), 10_000, 'the stream subscribed');
    fake.controls.streams.dropData();
    await eventually(
      async () => /gateway_upstream_stream_reconnects_total\{venue="alpaca"\} [1-9]/.test(await (await gw.get('/metrics')).text()),
      10_000,
      'a reconnect',
    );
    await eventually(
      async () => {
        fake.controls.market.setPrice('MSFT', 300.25);
        return (await gw.json('/api/v1/public/markets/MSFT')).body.data.price === '300.25';
      },
      10_000,
      'a streamed price after the reconnect',
    );
  });

  it('counted every request by type and outcome, kept its budget, and never showed a credential', async () => {
    const metrics = await (await gw.get('/metrics')).text();
    for (const [type, outcome] of [
      ['snapshots', '200'],
      ['snapshots', '429'],
      ['snapshots', '5xx'],
      ['snapshots', 'timeout'],
      ['snapshots', 'error'],
      ['clock', '200'],
      ['bars', '200'],
    ])
      expect(metrics).toMatch(new RegExp(`gateway_upstream_requests_total\\{venue="alpaca",type="${type}",outcome="${outcome}"\\} [1-9]`));
    expect(peakPerMinute(fake)).toBeLessThanOrEqual(BUDGET);
    const status = await (await gw.get('/api/v1/public/status')).text();
    for (const text of [metrics, status, logs.join('\n')]) {
      expect(text).not.toContain(KEY_ID);
      expect(text).not.toContain(SECRET);
    }
    expect(logs.some((l) => l.includes('market-data source failed'))).toBe(true);
  });
});

describe('configuration', () => {
  it('refuses to start with a key id but no secret, naming the missing variable (and never echoing the key)', async () => {
    const refused = await startVenueGateway({ venueEnv: { ALPACA_KEY_ID: KEY_ID } }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(refused?.message).toMatch(/ALPACA_SECRET_KEY is missing/);
    expect(refused?.message).not.toContain(KEY_ID);
  });

  it('refuses another ALPACA_ variable without the keys, and a variable set wrong, naming it', async () => {
    const stray = await startVenueGateway({ venueEnv: { ALPACA_SYMBOLS: 'AAPL' } }).catch((err: Error) => err);
    expect((stray as Error).message).toMatch(/ALPACA_SYMBOLS is set but ALPACA_KEY_ID and ALPACA_SECRET_KEY are missing/);
    const feed = await startVenueGateway({ venueEnv: { ALPACA_KEY_ID: KEY_ID, ALPACA_SECRET_KEY: SECRET, ALPACA_FEED: 'nasdaq' } }).catch((err: Error) => err);
    expect((feed as Error).message).toMatch(/ALPACA_FEED/);
    expect((feed as Error).message).not.toContain(SECRET);
  });
});
