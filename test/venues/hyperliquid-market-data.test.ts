import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import { startHyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import { eventually, peakWeight, startVenueGateway, type VenueGateway } from '../support/venue-gateway.js';

/**
 * The gateway on Hyperliquid's catalogue and data through the real SDK, against the local wire
 * fake serving recorded answers (test/fixtures/hyperliquid). HYPERLIQUID_NETWORK turns the venue
 * on; its URLs point it at the fake. Every fault the fake can play ends in a true envelope.
 */
const BUDGET = 1_200;
const venueEnv = (fake: HyperliquidReplay, extra: Record<string, string> = {}) => ({
  HYPERLIQUID_NETWORK: 'mainnet',
  HYPERLIQUID_API_URL: fake.httpUrl,
  HYPERLIQUID_WS_URL: fake.wsUrl,
  HYPERLIQUID_POLL_MS: '2000',
  HYPERLIQUID_TIMEOUT_MS: '1500',
  HYPERLIQUID_WEIGHT_PER_MINUTE: String(BUDGET),
  ...extra,
});

async function sourceOf(gw: VenueGateway): Promise<any> {
  const status = await gw.json('/api/v1/public/status');
  return status.body.data.sources.find((s: any) => s.sourceId === 'hyperliquid');
}

/** Public reads during a fault: only the contract's statuses (200, the 404 envelopes, 503 for books). */
async function expectContractStatuses(gw: VenueGateway): Promise<void> {
  for (const path of [
    '/api/v1/public/markets',
    '/api/v1/public/markets/BTC',
    '/api/v1/public/markets/BTC/history?resolution=1h&limit=5',
    '/api/v1/public/status',
  ]) {
    expect((await gw.get(path)).status, path).toBe(200);
  }
  expect([200, 503]).toContain((await gw.get('/api/v1/public/markets/BTC/orderbook')).status);
}

describe('the whole catalogue', () => {
  let fake: HyperliquidReplay;
  let gw: VenueGateway;
  beforeAll(async () => {
    fake = await startHyperliquidReplay({ perpCount: 200 });
    gw = await startVenueGateway({ venueEnv: venueEnv(fake) });
    // Its first poll may miss the 1.5 s timeout on a busy machine (other test files start too): the next one lists it.
    await eventually(async () => (await gw.json('/api/v1/public/markets')).body.data.some((m: any) => m.protocol === 'hyperliquid'), 10_000, 'the listing');
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('lists every perpetual the venue lists (not the simulator’s) and says which venues are real', async () => {
    const listed = fake.controls.assetNames().length - 14; // the fake's universe keeps 14 delisted coins
    const perps = (await gw.json('/api/v1/public/markets')).body.data.filter((m: any) => m.kind === 'perpetual');
    expect(perps).toHaveLength(listed);
    expect(perps.every((m: any) => m.protocol === 'hyperliquid')).toBe(true);
    expect((await gw.json('/api/v1/public/markets/RUS')).status).toBe(404); // delisted at the venue
    const venues = Object.fromEntries((await gw.json('/api/v1/public/status')).body.data.venues.map((v: any) => [v.id, v]));
    expect(venues.hyperliquid).toMatchObject({ kind: 'perpetuals', mode: 'real', network: 'mainnet' });
    expect(venues['paper-equities']).toMatchObject({ mode: 'simulated', upstream: 'in-process simulator' });
    expect(venues['paper-perps']).toBeUndefined();
    const protocols = (await gw.json('/api/v1/public/data/protocols.json')).body.data.map((p: any) => p.id);
    expect(protocols).toContain('hyperliquid');
  });

  it('serves the venue’s own figures, and a 24 h range only once its candles are stored (never made up)', async () => {
    const btc = (await gw.json('/api/v1/public/markets/BTC')).body.data;
    expect(btc).toMatchObject({ id: 'BTC-PERP', protocol: 'hyperliquid', quote: 'USDC' });
    expect(btc.price).toMatch(/^\d+(\.\d+)?$/);
    expect(btc.fundingRate).toMatch(/^-?\d+(\.\d+)?$/);
    expect(Number(btc.openInterest)).toBeGreaterThan(0);
    expect(btc.high24h === null || /^\d/.test(btc.high24h)).toBe(true);
  });

  it('streams books: at most 20 levels a side as the venue sends them, timed by the venue', async () => {
    const book = await eventually(
      async () => {
        const res = await gw.json('/api/v1/public/markets/BTC/orderbook');
        return res.status === 200 ? res.body : undefined;
      },
      10_000,
      'a streamed BTC book',
    );
    expect(book.data.bids.length).toBeGreaterThan(0);
    expect(book.data.bids.length).toBeLessThanOrEqual(20);
    expect(book.data.asks.length).toBeLessThanOrEqual(20);
    expect(fake.controls.wsSubscriptions().length).toBeLessThanOrEqual(900);
  });

  it('follows a listing and a delisting: a delisted market leaves the list and answers the stale not-found envelope', async () => {
    fake.controls.listAsset({ name: 'NEWCOIN', px: 12.5, szDecimals: 1 });
    await eventually(async () => (await gw.json('/api/v1/public/markets/NEWCOIN-PERP')).status === 200, 10_000, 'the listing');
    fake.controls.delistAsset('NEWCOIN');
    const gone = await eventually(
      async () => {
        const res = await gw.json('/api/v1/public/markets/NEWCOIN-PERP');
        return res.status === 404 ? res.body : undefined;
      },
      10_000,
      'the delisting',
    );
    expect(gone.freshness).toMatchObject({ stale: true, staleReason: 'not_found' });
    const list = (await gw.json('/api/v1/public/markets')).body.data;
    expect(list.find((m: any) => m.id === 'NEWCOIN-PERP')).toBeUndefined();
  });

  it('keeps within its weight budget, whatever it is doing (polls, history, listings)', () => {
    expect(peakWeight(fake)).toBeLessThanOrEqual(BUDGET);
  });
});

describe('history from the venue', () => {
  let fake: HyperliquidReplay;
  let gw: VenueGateway | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-hl-history-'));
  beforeAll(async () => {
    fake = await startHyperliquidReplay({ perpCount: 40 });
    fake.controls.setSparseCandles(0.3, 'ETH');
  });
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });
  afterAll(() => fake?.close());

  it('answers a cold market at once, saying it is backfilling, then serves the venue’s own candles (sparse stays sparse)', { timeout: 40_000 }, async () => {
    // History waits two seconds (a 429) while the stream already sends the current minutes: they
    // must not make the backfill start from now.
    fake.controls.rateLimitNext(1, 2, { type: 'candleSnapshot' });
    gw = await startVenueGateway({ dataDir, venueEnv: venueEnv(fake, { HYPERLIQUID_COINS: 'BTC,ETH,SOL', HYPERLIQUID_POLL_MS: '5000' }) });
    for (const coin of ['BTC', 'ETH', 'SOL']) fake.controls.pushCandle(coin, '1m');
    const first = await gw.json('/api/v1/public/markets/SOL/history?resolution=1h&limit=24');
    expect(first.status).toBe(200);
    if (first.body.data.points.length === 0) expect(first.body.freshness).toMatchObject({ stale: true, staleReason: 'history_backfilling' });
    const eth = await eventually(
      async () => {
        const res = await gw!.json('/api/v1/public/markets/ETH/history?resolution=1m&limit=120');
        // The closed minutes (the open one streams and moves).
        const closed = res.body.data.points.filter((p: any) => p.closed);
        return closed.length > 0 && !gw!.app.services.history.backfilling('ETH-PERP') ? closed : undefined;
      },
      20_000,
      'ETH minutes',
    );
    // The venue's own minutes only: where it had no trade there is no candle.
    const end = Date.parse(eth.at(-1).time);
    const venue = (await (
      await fetch(`${fake.httpUrl}/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'candleSnapshot', req: { coin: 'ETH', interval: '1m', startTime: Date.parse(eth[0].time), endTime: end } }),
      })
    ).json()) as { t: number }[];
    expect(eth.map((p: any) => Date.parse(p.time))).toEqual(venue.map((c) => c.t));
    expect(eth.length).toBeLessThan(120);
    expect(eth.length).toBeGreaterThan(40); // two hours at 30 % empty minutes: the history, not only what streamed
    await eventually(() => !gw!.app.services.history.backfilling('BTC-PERP'), 20_000, 'BTC history (retried after the 429)');
    const days = (await gw.json('/api/v1/public/markets/BTC/history?resolution=1d&limit=366')).body.data.points;
    expect(days.length).toBeGreaterThan(300);
  });

  it('keeps its history across a restart and resumes from the newest stored candle', async () => {
    // A data directory of its own: the one above also holds that test's spending of this minute.
    const ownDir = mkdtempSync(join(tmpdir(), 'gw-hl-restart-'));
    const env = venueEnv(fake, { HYPERLIQUID_COINS: 'BTC', HYPERLIQUID_POLL_MS: '5000' });
    gw = await startVenueGateway({ dataDir: ownDir, venueEnv: env });
    await eventually(() => !gw!.app.services.history.backfilling('BTC-PERP'), 20_000, 'BTC history');
    const before = (await gw.json('/api/v1/public/markets/BTC/history?resolution=1h&limit=24')).body.data.points;
    await gw.close();
    fake.controls.clearRequests();
    gw = await startVenueGateway({ dataDir: ownDir, venueEnv: env });
    // Served from disk before the venue is asked again.
    const after = (await gw.json('/api/v1/public/markets/BTC/history?resolution=1h&limit=24')).body.data.points;
    expect(after.length).toBeGreaterThan(0);
    // Every closed hour served after the restart is the one served before it.
    const earlier = new Map(before.filter((p: any) => p.closed).map((p: any) => [p.time, p]));
    for (const point of after.filter((p: any) => p.closed && earlier.has(p.time))) expect(point).toEqual(earlier.get(point.time));
    await eventually(
      () => fake.controls.requests().some((r) => r.type === 'candleSnapshot' && (r.body as any).req.coin === 'BTC' && (r.body as any).req.interval === '1m'),
      20_000,
      'the resumed minutes of BTC',
    );
    const resumed = fake.controls
      .requests()
      .find((r) => r.type === 'candleSnapshot' && (r.body as any).req.coin === 'BTC' && (r.body as any).req.interval === '1m')!;
    // From the newest stored minute, not two days back.
    expect(Date.now() - (resumed.body as any).req.startTime).toBeLessThan(10 * 60_000);
  });

  it('pages funding history 500 at a time, the page boundary included', async () => {
    fake.controls.exactFundingHistory('SOL', 500);
    gw = await startVenueGateway({ venueEnv: venueEnv(fake, { HYPERLIQUID_COINS: 'SOL' }) });
    await eventually(() => !gw!.app.services.history.backfilling('SOL-PERP'), 20_000, 'SOL history');
    const pages = fake.controls.requests().filter((r) => r.type === 'fundingHistory' && (r.body as any).coin === 'SOL');
    expect(pages.length).toBeGreaterThanOrEqual(2); // a full page of 500 asks for the next
    const stored = await gw.app.stores.funding.latest('SOL-PERP', 720);
    expect(stored.length).toBe(500);
  });
});

describe('faults at the venue', () => {
  let fake: HyperliquidReplay;
  let gw: VenueGateway;
  beforeAll(async () => {
    fake = await startHyperliquidReplay({ perpCount: 30 });
    gw = await startVenueGateway({ venueEnv: venueEnv(fake, { HYPERLIQUID_COINS: 'BTC,ETH' }) });
    await eventually(async () => (await sourceOf(gw))?.status === 'healthy', 10_000, 'a healthy venue');
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });
  afterEach(async () => {
    fake.controls.clearFaults();
    await eventually(async () => (await sourceOf(gw)).status === 'healthy', 15_000, 'recovery');
  });

  it('a 429 with Retry-After: degraded, every request paused by it (no retry storm), then healthy again', async () => {
    fake.controls.rateLimitNext(1, 3, { type: 'metaAndAssetCtxs' });
    const degraded = await eventually(
      async () => {
        const s = await sourceOf(gw);
        return s.status === 'degraded' ? s : undefined;
      },
      5_000,
      'degraded by a 429',
    );
    expect(degraded.lastError).toMatch(/429/);
    await expectContractStatuses(gw);
    const requests = fake.controls.requests();
    const limited = requests.find((r) => r.fault === 'rateLimit')!;
    const next = requests.find((r) => r.seq > limited.seq);
    if (next) expect(next.at - limited.at).toBeGreaterThanOrEqual(2_900);
  });

  it('500s: degraded at the first, down after three in a row, with the markets marked stale', async () => {
    fake.controls.serverErrorNext(3, { status: 500 }, { type: 'metaAndAssetCtxs' });
    await eventually(async () => (await sourceOf(gw)).status === 'down', 10_000, 'down after three failures');
    const btc = (await gw.json('/api/v1/public/markets/BTC')).body;
    expect(btc.freshness).toMatchObject({ stale: true, staleReason: 'source_down', sourceStatus: 'down' });
    await expectContractStatuses(gw);
  });

  it('a request that hangs past the timeout, malformed JSON and a page instead of JSON: degraded, never a crash', async () => {
    for (const inject of [
      () => fake.controls.hangNext(1, { type: 'metaAndAssetCtxs' }),
      () => fake.controls.malformedJsonNext(1, { type: 'metaAndAssetCtxs' }),
      () => fake.controls.wrongContentTypeNext(1, {}, { type: 'metaAndAssetCtxs' }),
    ]) {
      inject();
      const s = await eventually(
        async () => {
          const source = await sourceOf(gw);
          return source.status === 'degraded' ? source : undefined;
        },
        8_000,
        'degraded',
      );
      expect(s.lastError).toBeTruthy();
      expect(s.lastError).not.toMatch(/<html|stack|at \w+ \(/);
      await expectContractStatuses(gw);
      await eventually(async () => (await sourceOf(gw)).status === 'healthy', 8_000, 'healthy again');
    }
  });

  it('a stream cut mid-update reconnects (counted in /metrics) and books flow again', async () => {
    fake.controls.cutNextPush();
    fake.controls.pushL2Book('BTC');
    await eventually(
      async () => /gateway_upstream_stream_reconnects_total\{venue="hyperliquid"\} [1-9]/.test(await (await gw.get('/metrics')).text()),
      10_000,
      'a reconnect',
    );
    const before = (await gw.json('/api/v1/public/markets/BTC/orderbook')).body.freshness?.asOf;
    await eventually(
      async () => {
        fake.controls.pushL2Book('BTC');
        const res = await gw.json('/api/v1/public/markets/BTC/orderbook');
        return res.status === 200 && res.body.freshness.asOf !== before;
      },
      10_000,
      'a new book after the reconnect',
    );
  });

  it('a venue clock far behind: the data says it is stale (its own time is the as-of time)', async () => {
    fake.controls.setClockOffset(-10 * 60_000);
    try {
      const book = await eventually(
        async () => {
          fake.controls.pushL2Book('BTC');
          const res = await gw.json('/api/v1/public/markets/BTC/orderbook');
          return res.status === 200 && res.body.freshness.stale ? res.body : undefined;
        },
        10_000,
        'a stale book',
      );
      expect(book.freshness.staleReason).toBe('max_age_exceeded');
      expect(Date.now() - Date.parse(book.freshness.asOf)).toBeGreaterThan(9 * 60_000);
      // The venue's time is ten minutes behind what ingest wrote: /metrics shows that age.
      const lag = /gateway_upstream_data_age_seconds\{venue="hyperliquid"\} ([\d.e+]+)/.exec(await (await gw.get('/metrics')).text());
      expect(Number(lag?.[1])).toBeGreaterThan(540);
    } finally {
      fake.controls.setClockOffset(0);
    }
  });

  it('counts its upstream requests by type and outcome in /metrics, and kept its budget throughout', async () => {
    const text = await (await gw.get('/metrics')).text();
    expect(text).toMatch(/gateway_upstream_requests_total\{venue="hyperliquid",type="metaAndAssetCtxs",outcome="200"\} \d+/);
    expect(text).toMatch(/gateway_upstream_requests_total\{venue="hyperliquid",type="metaAndAssetCtxs",outcome="429"\} [1-9]/);
    expect(text).toMatch(/gateway_upstream_budget_used_ratio\{venue="hyperliquid"\} 0\.\d+|gateway_upstream_budget_used_ratio\{venue="hyperliquid"\} [01]\b/);
    expect(peakWeight(fake)).toBeLessThanOrEqual(BUDGET);
  });
});

describe('the budget across a restart', () => {
  it('a gateway restarted within the minute starts from what the one before it spent (embedded: market-history.db)', async () => {
    const fake = await startHyperliquidReplay({ perpCount: 30 });
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-hl-budget-'));
    // 200 a minute, 40 kept for the twice-a-minute poll: a first process spends most of it on history at once.
    const env = venueEnv(fake, { HYPERLIQUID_COINS: 'BTC,ETH', HYPERLIQUID_WEIGHT_PER_MINUTE: '200', HYPERLIQUID_POLL_MS: '30000' });
    let gw: VenueGateway | undefined;
    try {
      gw = await startVenueGateway({ dataDir, venueEnv: env });
      await eventually(() => fake.controls.weightInWindow() >= 100, 10_000, 'the first process spending most of its minute');
      await gw.close();
      gw = await startVenueGateway({ dataDir, venueEnv: env });
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(peakWeight(fake)).toBeLessThanOrEqual(200);
      // It did run: its own poll went out.
      expect(fake.controls.requests().filter((r) => r.type === 'metaAndAssetCtxs').length).toBeGreaterThanOrEqual(2);
    } finally {
      await gw?.close();
      await fake.close();
    }
  });
});
