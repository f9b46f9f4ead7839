import { readFile } from 'node:fs/promises';
import * as hl from '@nktkas/hyperliquid';
import { createL1ActionHash } from '@nktkas/hyperliquid/signing';
import { recoverTypedDataAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { startHyperliquidReplay, type HyperliquidReplay, type HyperliquidReplayOptions } from '../../src/venues/hyperliquid/replay/start.js';

/**
 * The Hyperliquid wire fake, driven only through the venue's SDK (@nktkas/hyperliquid 0.32.2):
 * InfoClient over HttpTransport, SubscriptionClient over WebSocketTransport (Node 20 has no global
 * WebSocket: the `ws` constructor is passed as `reconnect.WebSocket`), ExchangeClient against the
 * fake's /exchange hook. What each test shows about the SDK is said in its name.
 */

const FIXTURES = new URL('../fixtures/hyperliquid/', import.meta.url);
const INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

async function fixture(name: string): Promise<{ source: Record<string, unknown>; request: any; status: number; response: any }> {
  return JSON.parse(await readFile(new URL(name, FIXTURES), 'utf8'));
}

// ---- response schemas: the SDK's response *types* (src/api/info/_methods/*.ts, with their @pattern) as zod ----
// 0.32.2 validates requests with valibot but never responses, so the fake's answers are checked here.
const UDEC = z.string().regex(/^[0-9]+(\.[0-9]+)?$/);
const DEC = z.string().regex(/^-?[0-9]+(\.[0-9]+)?$/);
const INT = z.number().int();
const UniverseEntry = z
  .object({
    szDecimals: INT,
    name: z.string(),
    maxLeverage: INT,
    marginTableId: INT,
    onlyIsolated: z.literal(true).optional(),
    isDelisted: z.literal(true).optional(),
    marginMode: z.enum(['strictIsolated', 'noCross']).optional(),
    growthMode: z.literal('enabled').optional(),
    lastGrowthModeChangeTime: z.string().optional(),
  })
  .strict();
const MarginTable = z.object({ description: z.string(), marginTiers: z.array(z.object({ lowerBound: UDEC, maxLeverage: INT }).strict()) }).strict();
const Meta = z.object({ universe: z.array(UniverseEntry), marginTables: z.array(z.tuple([INT, MarginTable])), collateralToken: INT }).strict();
const PerpAssetCtx = z
  .object({
    prevDayPx: UDEC,
    dayNtlVlm: UDEC,
    markPx: UDEC,
    midPx: UDEC.nullable(),
    funding: DEC,
    openInterest: UDEC,
    premium: DEC.nullable(),
    oraclePx: UDEC,
    impactPxs: z.array(UDEC).nullable(),
    dayBaseVlm: UDEC,
  })
  .strict();
const Level = z.object({ px: UDEC, sz: UDEC, n: INT }).strict();
const L2Book = z.object({ coin: z.string(), time: INT, levels: z.tuple([z.array(Level), z.array(Level)]), spread: UDEC.optional() }).strict();
const Candle = z.object({ t: INT, T: INT, s: z.string(), i: z.enum(INTERVALS), o: UDEC, c: UDEC, h: UDEC, l: UDEC, v: UDEC, n: INT }).strict();
const Funding = z.object({ coin: z.string(), fundingRate: DEC, premium: DEC, time: INT }).strict();
const Predicted = z.array(
  z.tuple([
    z.string(),
    z.array(z.tuple([z.string(), z.object({ fundingRate: DEC, nextFundingTime: INT, fundingIntervalHours: INT.optional() }).strict().nullable()])),
  ]),
);
const AllMids = z.record(z.string(), UDEC);

// ---- SDK construction, as the gateway will do it ----
const WS = WebSocket as unknown as typeof globalThis.WebSocket;

function infoClient(fake: HyperliquidReplay, options: Omit<hl.HttpTransportOptions, 'apiUrl'> = {}): hl.InfoClient<{ transport: hl.HttpTransport }> {
  return new hl.InfoClient({ transport: new hl.HttpTransport({ apiUrl: fake.httpUrl, ...options }) });
}

function wsTransport(fake: HyperliquidReplay, options: Omit<hl.WebSocketTransportOptions, 'url'> = {}): hl.WebSocketTransport {
  return new hl.WebSocketTransport({ url: fake.wsUrl, ...options, reconnect: { WebSocket: WS, ...options.reconnect } });
}

async function until(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const fakes: HyperliquidReplay[] = [];
const transports: hl.WebSocketTransport[] = [];

async function start(options: HyperliquidReplayOptions = {}): Promise<HyperliquidReplay> {
  const fake = await startHyperliquidReplay(options);
  fakes.push(fake);
  return fake;
}

function track(transport: hl.WebSocketTransport): hl.WebSocketTransport {
  transports.push(transport);
  return transport;
}

/** Stop `fake`'s clock at the machine's now until the test ends, so a minute or hour boundary crossed mid-test cannot move the newest candle. */
function freezeClock(fake: HyperliquidReplay): number {
  const now = Date.now();
  fake.controls.setNow(now);
  frozen.push(fake);
  return fake.controls.now();
}
const frozen: HyperliquidReplay[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const fake of frozen.splice(0)) fake.controls.setNow(null);
  await Promise.all(transports.splice(0).map((t) => t.close().catch(() => undefined)));
});

afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

describe('info endpoint through InfoClient + HttpTransport', () => {
  let fake: HyperliquidReplay;
  let info: hl.InfoClient<{ transport: hl.HttpTransport }>;

  beforeAll(async () => {
    fake = await start();
    info = infoClient(fake);
  });

  it('meta: 200 perps, the 28 recorded first in the recorded order (BTC = asset 0), current fields and margin tables', async () => {
    const meta = Meta.parse(await info.meta());
    const recorded = await fixture('meta.json');
    expect(meta.universe).toHaveLength(200);
    expect(meta.universe.slice(0, 28).map((u) => [u.name, u.szDecimals, u.maxLeverage])).toEqual(
      recorded.response.universe.map((u: any) => [u.name, u.szDecimals, u.maxLeverage]),
    );
    expect(meta.universe[0]?.name).toBe('BTC');
    expect(new Set(meta.universe.map((u) => u.name)).size).toBe(200);
    expect(meta.marginTables.map(([id]) => id)).toEqual([50, 51]);
    expect(meta.universe.some((u) => u.isDelisted)).toBe(true);
    expect(meta.universe.some((u) => u.marginMode === 'strictIsolated' && u.onlyIsolated)).toBe(true);
    expect(meta.collateralToken).toBe(0);
  });

  it('metaAndAssetCtxs: one context per universe entry; a delisted one has no mid, premium or impact prices', async () => {
    const [meta, ctxs] = await info.metaAndAssetCtxs();
    Meta.parse(meta);
    z.array(PerpAssetCtx).parse(ctxs);
    expect(ctxs).toHaveLength(meta.universe.length);
    const delisted = meta.universe.findIndex((u) => u.isDelisted);
    expect(ctxs[delisted]).toMatchObject({ midPx: null, premium: null, impactPxs: null, openInterest: '0.0' });
    const btc = ctxs[0]!;
    expect(btc.midPx).toBe('30135.0');
    expect(btc.markPx).toBe('30135.0');
  });

  it('allMids: recorded mids as recorded, synthesized perps, the recorded spot pairs, no delisted perp', async () => {
    const mids = AllMids.parse(await info.allMids());
    const recorded = await fixture('allMids.json');
    for (const [coin, px] of Object.entries(recorded.response)) expect(mids[coin]).toBe(px);
    const meta = await info.meta();
    for (const u of meta.universe) expect(mids[u.name] !== undefined).toBe(!u.isDelisted);
    expect(mids['@107']).toBe('41.3315');
    expect(mids['PURR/USDC']).toBe('0.11311');
  });

  it('l2Book: the recorded DYDX levels; 20 ordered levels a side elsewhere; nSigFigs aggregates; an unknown coin is null', async () => {
    const recorded = await fixture('l2Book.json');
    const dydx = L2Book.parse(await info.l2Book({ coin: 'DYDX' }));
    expect(dydx.levels).toEqual(recorded.response.levels);
    expect(Math.abs(dydx.time - fake.controls.now())).toBeLessThan(5000);

    const btc = L2Book.parse(await info.l2Book({ coin: 'BTC' }));
    const [bids, asks] = btc.levels;
    expect(bids).toHaveLength(20);
    expect(asks).toHaveLength(20);
    expect(Number(bids[0]!.px)).toBeLessThan(Number(asks[0]!.px));
    for (let i = 1; i < 20; i++) {
      expect(Number(bids[i]!.px)).toBeLessThan(Number(bids[i - 1]!.px));
      expect(Number(asks[i]!.px)).toBeGreaterThan(Number(asks[i - 1]!.px));
    }

    const coarse = L2Book.parse(await info.l2Book({ coin: 'BTC', nSigFigs: 3 }));
    expect(coarse.levels[0].length).toBeGreaterThan(0);
    expect(coarse.levels[0].length).toBeLessThanOrEqual(20);
    for (const level of [...coarse.levels[0], ...coarse.levels[1]]) expect(Number(level.px) % 100).toBe(0);

    expect(await info.l2Book({ coin: 'NOPE' })).toBeNull();
  });

  it('candleSnapshot: every interval, aligned and ascending, within startTime/endTime (the candle holding startTime included)', async () => {
    const now = freezeClock(fake);
    for (const interval of INTERVALS) {
      const candles = z.array(Candle).parse(await info.candleSnapshot({ coin: 'ETH', interval, startTime: now - 30 * DAY }));
      expect(candles.length, interval).toBeGreaterThan(0);
      for (let i = 1; i < candles.length; i++) {
        expect(candles[i]!.t).toBe(candles[i - 1]!.T + 1);
      }
      const last = candles.at(-1)!;
      expect(last.t).toBeLessThanOrEqual(now);
      expect(last.T).toBeGreaterThanOrEqual(now);
      expect(candles[0]!.T).toBeGreaterThanOrEqual(now - 30 * DAY);
      for (const c of candles) {
        expect(c.i).toBe(interval);
        expect(c.s).toBe('ETH');
        expect(Number(c.h)).toBeGreaterThanOrEqual(Math.max(Number(c.o), Number(c.c)));
        expect(Number(c.l)).toBeLessThanOrEqual(Math.min(Number(c.o), Number(c.c)));
      }
    }
    const hours = await info.candleSnapshot({ coin: 'ETH', interval: '1h', startTime: now - 10 * HOUR - 1, endTime: now - 2 * HOUR });
    expect(hours[0]!.t).toBeLessThanOrEqual(now - 10 * HOUR);
    expect(hours.at(-1)!.t).toBeLessThanOrEqual(now - 2 * HOUR);
    expect(hours.at(-1)!.T).toBeGreaterThanOrEqual(now - 2 * HOUR);
    expect(hours).toHaveLength(9);

    const month = await info.candleSnapshot({ coin: 'ETH', interval: '1M', startTime: Date.UTC(2024, 0, 15) });
    expect(month[0]).toMatchObject({ t: Date.UTC(2024, 0, 1), T: Date.UTC(2024, 1, 1) - 1 });
    const weeks = await info.candleSnapshot({ coin: 'ETH', interval: '1w', startTime: now - 21 * DAY });
    for (const w of weeks) expect(new Date(w.t).getUTCDay()).toBe(1);
  });

  it('candleSnapshot: at most 5000 candles, only the 5000 most recent exist, none before listing', async () => {
    const now = freezeClock(fake);
    const minutes = await info.candleSnapshot({ coin: 'SOL', interval: '1m', startTime: now - 10 * DAY });
    expect(minutes).toHaveLength(5000);
    expect(minutes[0]!.t).toBe(Math.floor(now / MINUTE) * MINUTE - 4999 * MINUTE);
    expect(await info.candleSnapshot({ coin: 'SOL', interval: '1m', startTime: now - 10 * DAY, endTime: now - 5 * DAY })).toEqual([]);
    const days = await info.candleSnapshot({ coin: 'SOL', interval: '1d', startTime: 0 });
    expect(days[0]!.t).toBe(Date.UTC(2023, 1, 1));
  });

  it('candleSnapshot: sparse candles leave minutes without trades out, hours stay whole', async () => {
    const now = fake.controls.now();
    const startTime = now - 6 * HOUR;
    fake.controls.setSparseCandles(0.6, 'AVAX');
    try {
      const sparse = await info.candleSnapshot({ coin: 'AVAX', interval: '1m', startTime });
      const dense = await info.candleSnapshot({ coin: 'ATOM', interval: '1m', startTime });
      expect(dense.length).toBeGreaterThanOrEqual(360);
      expect(sparse.length).toBeLessThan(dense.length * 0.6);
      expect(sparse.some((c, i) => i > 0 && c.t - sparse[i - 1]!.t > MINUTE)).toBe(true);
      const hours = await info.candleSnapshot({ coin: 'AVAX', interval: '1h', startTime });
      expect(hours.length).toBeGreaterThanOrEqual(6);
    } finally {
      fake.controls.setSparseCandles(0, 'AVAX');
    }
  });

  it('fundingHistory: at most 500 items; paging by last time + 1 reads all 1038 recorded BTC items', async () => {
    const recorded = await fixture('fundingHistory-noEndTime.json');
    const { startTime } = recorded.request;
    const lastRecorded = recorded.response.at(-1).time;
    const first = z.array(Funding).parse(await info.fundingHistory({ coin: 'BTC', startTime }));
    expect(first).toHaveLength(500);
    expect(first).toEqual(recorded.response.slice(0, 500));
    const all = [...first];
    while (all.at(-1)!.time < lastRecorded) {
      const page = await info.fundingHistory({ coin: 'BTC', startTime: all.at(-1)!.time + 1, endTime: lastRecorded });
      expect(page.length).toBeLessThanOrEqual(500);
      if (page.length === 0) break;
      all.push(...page);
    }
    expect(all).toEqual(recorded.response);
    const after = await info.fundingHistory({ coin: 'BTC', startTime: lastRecorded + 1, endTime: lastRecorded + 5 * HOUR + 1000 });
    expect(after).toHaveLength(5);
    for (const item of after) expect(item.time % HOUR).toBeLessThan(400);
  });

  it('fundingHistory: a page boundary of exactly 500 items, then an empty page', async () => {
    const series = fake.controls.exactFundingHistory('LINK', 500);
    const page = await info.fundingHistory({ coin: 'LINK', startTime: 0 });
    expect(page).toEqual(series);
    expect(page).toHaveLength(500);
    expect(await info.fundingHistory({ coin: 'LINK', startTime: page.at(-1)!.time + 1 })).toEqual([]);
  });

  it('predictedFundings: Binance/Hyperliquid/Bybit per perp, null where the perp is not on a CEX', async () => {
    const predicted = Predicted.parse(await info.predictedFundings());
    const btc = predicted.find(([coin]) => coin === 'BTC')!;
    expect(btc[1].map(([venue]) => venue)).toEqual(['BinPerp', 'HlPerp', 'BybitPerp']);
    expect(btc[1][1]![1]).toMatchObject({ fundingIntervalHours: 1 });
    expect(predicted.some(([, venues]) => venues[0]![1] === null)).toBe(true);
  });

  it('replaying a recorded request gives the recorded body (fundingHistory with endTime)', async () => {
    const recorded = await fixture('fundingHistory-withEndTime.json');
    expect(await info.fundingHistory({ coin: 'BTC', startTime: recorded.request.startTime, endTime: recorded.request.endTime })).toEqual(recorded.response);
  });

  it('sends the bodies the venue documents (what /info receives from the SDK)', async () => {
    fake.controls.clearRequests();
    await info.l2Book({ coin: 'BTC' });
    await info.candleSnapshot({ coin: 'BTC', interval: '1h', startTime: 1, endTime: 2 });
    await info.fundingHistory({ coin: 'BTC', startTime: 1 });
    await info.metaAndAssetCtxs();
    await info.predictedFundings();
    const requests = fake.controls.requests();
    expect(requests.map((r) => r.rawBody)).toEqual([
      '{"type":"l2Book","coin":"BTC"}',
      '{"type":"candleSnapshot","req":{"coin":"BTC","interval":"1h","startTime":1,"endTime":2}}',
      '{"type":"fundingHistory","coin":"BTC","startTime":1}',
      '{"type":"metaAndAssetCtxs"}',
      '{"type":"predictedFundings"}',
    ]);
    expect(requests.every((r) => r.method === 'POST' && r.path === '/info' && r.contentType === 'application/json')).toBe(true);
  });

  it('validates requests with valibot before sending: a bad parameter throws ValidationError synchronously, nothing is sent', async () => {
    fake.controls.clearRequests();
    let thrown: unknown;
    try {
      // Not a rejected promise: the method throws before it returns one.
      void info.candleSnapshot({ coin: 'BTC', interval: '2m' as '1m', startTime: 0 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(hl.ValidationError);
    expect(thrown).toBeInstanceOf(hl.HyperliquidError);
    expect((thrown as hl.ValidationError).message).toContain('interval');
    expect((thrown as hl.ValidationError).cause.issues.length).toBeGreaterThan(0);
    expect(() => info.l2Book({ coin: 'BTC', nSigFigs: 7 as 5 })).toThrow(hl.ValidationError);
    expect(fake.controls.requests()).toEqual([]);
  });

  it('does not validate responses: a 200 JSON body of the wrong shape comes back as it is', async () => {
    fake.controls.wrongContentTypeNext(1, { contentType: 'application/json', body: '{"universe":"not a list"}' });
    expect(await info.meta()).toEqual({ universe: 'not a list' });
  });

  it('an unknown info type gets the venue rejection: 422 text/plain "Failed to deserialize the JSON body into the target type: …"', async () => {
    const error = await caught(info.config_.transport.request('info', { type: 'noSuchThing' }));
    expect(error).toBeInstanceOf(hl.HttpRequestError);
    const response = (error as hl.HttpRequestError).response!;
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toMatch(/^Failed to deserialize the JSON body into the target type: unknown variant `noSuchThing`, expected one of `meta`, /);
    expect((error as Error).message).toMatch(/^422 Unprocessable Entity - Failed to deserialize/);
  });

  it('fundingHistory of an unknown coin: 500 with a JSON null body', async () => {
    const error = (await caught(info.fundingHistory({ coin: 'NOPE', startTime: 0 }))) as hl.HttpRequestError;
    expect(error.response?.status).toBe(500);
    expect(error.message).toBe('500 Internal Server Error - null');
  });
});

describe('the recorded candles, with the venue clock at the recording', () => {
  it('gives the recorded kPEPE 1h candles for the recorded request', async () => {
    const recorded = await fixture('candleSnapshot.json');
    const fake = await start({ clock: { now: Date.parse(String(recorded.source.recordedAt)) } });
    const info = infoClient(fake);
    expect(await info.candleSnapshot(recorded.request.req)).toEqual(recorded.response);
    const mids = await info.allMids();
    const around = await info.candleSnapshot({ coin: 'kPEPE', interval: '1h', startTime: fake.controls.now() - 3 * HOUR });
    expect(Math.abs(Number(around.at(-1)!.c) / Number(mids.kPEPE) - 1)).toBeLessThan(0.01);
  });
});

describe('HTTP faults as the SDK reports them', () => {
  let fake: HyperliquidReplay;
  let info: hl.InfoClient<{ transport: hl.HttpTransport }>;

  beforeAll(async () => {
    fake = await start();
    info = infoClient(fake);
  });

  it('429: HttpRequestError whose `response` carries the status, Retry-After and the body', async () => {
    fake.controls.rateLimitNext(2, 7);
    const error = await caught(info.allMids());
    expect(error).toBeInstanceOf(hl.HttpRequestError);
    expect(error).toBeInstanceOf(hl.TransportError);
    const e = error as hl.HttpRequestError;
    expect(e.name).toBe('HttpRequestError');
    expect(e.message).toBe('429 Too Many Requests - Too Many Requests');
    expect(e.response?.status).toBe(429);
    expect(e.response?.headers.get('retry-after')).toBe('7');
    expect(await e.response?.text()).toBe('Too Many Requests');
    await caught(info.meta());
    expect(await info.allMids()).toHaveProperty('BTC');
    expect(
      fake.controls
        .requests()
        .slice(-3)
        .map((r) => [r.status, r.fault]),
    ).toEqual([
      [429, 'rateLimit'],
      [429, 'rateLimit'],
      [200, undefined],
    ]);
  });

  it('500: HttpRequestError with the status and the text body in the message', async () => {
    fake.controls.serverErrorNext(1, { body: 'boom' });
    const e = (await caught(info.meta())) as hl.HttpRequestError;
    expect(e.response?.status).toBe(500);
    expect(e.message).toBe('500 Internal Server Error - boom');
  });

  it('a hung request fails at the transport timeout: HttpRequestError without a response, cause TimeoutError', async () => {
    fake.controls.hangNext(1);
    const quick = infoClient(fake, { timeout: 300 });
    const started = Date.now();
    const e = (await caught(quick.allMids())) as hl.HttpRequestError;
    const elapsed = Date.now() - started;
    expect(e).toBeInstanceOf(hl.HttpRequestError);
    expect(e.response).toBeUndefined();
    expect((e.cause as Error).name).toBe('TimeoutError');
    expect(e.message).toMatch(/^Unknown HTTP request error: TimeoutError/);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(3000);
    expect(fake.controls.requests().at(-1)).toMatchObject({ fault: 'hang', status: undefined });
  });

  it("a caller AbortSignal cancels the same way (cause: the signal's reason)", async () => {
    fake.controls.hangNext(1);
    const e = (await caught(info.allMids(AbortSignal.timeout(100)))) as hl.HttpRequestError;
    expect(e).toBeInstanceOf(hl.HttpRequestError);
    expect(e.response).toBeUndefined();
    expect((e.cause as Error).name).toBe('TimeoutError');
  });

  it('malformed JSON: HttpRequestError without a response (the status is lost), cause SyntaxError', async () => {
    fake.controls.malformedJsonNext(1);
    const e = (await caught(info.meta())) as hl.HttpRequestError;
    expect(e).toBeInstanceOf(hl.HttpRequestError);
    expect(e.response).toBeUndefined();
    expect(e.cause).toBeInstanceOf(SyntaxError);
  });

  it('a non-JSON content type: HttpRequestError with the 200 response and the page in the message', async () => {
    fake.controls.wrongContentTypeNext(1);
    const e = (await caught(info.allMids())) as hl.HttpRequestError;
    expect(e.response?.status).toBe(200);
    expect(e.response?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(e.message).toMatch(/^200 OK - <html>/);
  });

  it('faults can target one request type', async () => {
    fake.controls.serverErrorNext(1, {}, { type: 'l2Book' });
    expect(await info.allMids()).toHaveProperty('ETH');
    await caught(info.l2Book({ coin: 'ETH' }));
    expect(fake.controls.pendingFaults()).toBe(0);
  });

  it('setLatency: every request to the path waits the fixed round trip; the other path does not; 0 removes it', async () => {
    const timed = async (read: () => Promise<unknown>) => {
      const started = performance.now();
      await read();
      return performance.now() - started;
    };
    fake.controls.setLatency(150, '/info');
    try {
      expect(await timed(() => info.allMids())).toBeGreaterThanOrEqual(145);
      expect(await timed(() => info.meta())).toBeGreaterThanOrEqual(145);
      fake.controls.setLatency(150, '/exchange');
      // An /exchange request of a venue without trading (403) is answered after the same wait; /info is back to no wait.
      fake.controls.setLatency(0, '/info');
      const exchange = async () =>
        (await fetch(`${fake.httpUrl}/exchange`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).text();
      expect(await timed(exchange)).toBeGreaterThanOrEqual(145);
      expect(await timed(() => info.allMids())).toBeLessThan(145);
      fake.controls.setLatency(150);
      expect(await timed(() => info.allMids())).toBeGreaterThanOrEqual(145);
      fake.controls.setLatency(0);
      expect(await timed(() => info.allMids())).toBeLessThan(145);
      expect(await timed(exchange)).toBeLessThan(145);
    } finally {
      fake.controls.setLatency(0);
    }
  });

  it('counts request weight: 2 for l2Book/allMids, 20 for meta, +1 per 20 funding items, +1 per 60 candles', async () => {
    const fresh = await start();
    const client = infoClient(fresh);
    const now = fresh.controls.now();
    await client.allMids();
    await client.l2Book({ coin: 'BTC' });
    await client.meta();
    await client.metaAndAssetCtxs();
    await client.predictedFundings();
    const candles = await client.candleSnapshot({ coin: 'BTC', interval: '1m', startTime: now - 200 * MINUTE });
    const funding = await client.fundingHistory({ coin: 'ETH', startTime: now - 100 * HOUR });
    const weights = fresh.controls.requests().map((r) => [r.type, r.weight]);
    expect(weights).toEqual([
      ['allMids', 2],
      ['l2Book', 2],
      ['meta', 20],
      ['metaAndAssetCtxs', 20],
      ['predictedFundings', 20],
      ['candleSnapshot', 20 + Math.floor(candles.length / 60)],
      ['fundingHistory', 20 + Math.floor(funding.length / 20)],
    ]);
    const total = weights.reduce((sum, [, w]) => sum + Number(w), 0);
    expect(fresh.controls.weightInWindow()).toBe(total);
    expect(fresh.controls.weightPerMinute().reduce((sum, m) => sum + m.weight, 0)).toBe(total);
  });

  it('enforces the 1200-per-minute weight budget when asked: 429 with Retry-After', async () => {
    const fresh = await start();
    const client = infoClient(fresh);
    fresh.controls.enforceWeightLimit(110);
    for (let i = 0; i < 5; i++) await client.meta();
    const e = (await caught(client.meta())) as hl.HttpRequestError;
    expect(e.response?.status).toBe(429);
    expect(Number(e.response?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await client.allMids()).toHaveProperty('BTC');
    // Five meta (100), the refused sixth (0: refused requests are not charged), allMids (2).
    expect(fresh.controls.weightInWindow()).toBe(102);
    expect(fresh.controls.requests().map((r) => r.fault ?? r.status)).toEqual([200, 200, 200, 200, 200, 'weightLimit', 200]);
  });
});

describe('universe changes and the venue clock', () => {
  it('lists a new perp at the end and delists one in place (indices never move)', async () => {
    const fake = await start();
    const info = infoClient(fake);
    const index = fake.controls.listAsset({ name: 'NEWCOIN', px: 1.2345 });
    expect(index).toBe(200);
    const delisted = fake.controls.delistAsset('APE');
    const [meta, ctxs] = await info.metaAndAssetCtxs();
    expect(meta.universe[200]).toMatchObject({ name: 'NEWCOIN', szDecimals: 1 });
    expect(meta.universe[delisted]).toMatchObject({ name: 'APE', isDelisted: true });
    expect(ctxs[delisted]!.midPx).toBeNull();
    const mids = await info.allMids();
    expect(mids.NEWCOIN).toBe('1.2345');
    expect(mids.APE).toBeUndefined();
    const candles = await info.candleSnapshot({ coin: 'NEWCOIN', interval: '1h', startTime: 0 });
    expect(candles.length).toBeLessThanOrEqual(2);
  });

  it('a venue clock far behind shifts every timestamp', async () => {
    const fake = await start({ clock: { offsetMs: -3 * DAY } });
    const info = infoClient(fake);
    const book = await info.l2Book({ coin: 'BTC' });
    expect(Date.now() - book!.time).toBeGreaterThan(3 * DAY - 5000);
    const candles = await info.candleSnapshot({ coin: 'BTC', interval: '1h', startTime: Date.now() - 5 * DAY });
    expect(Date.now() - candles.at(-1)!.t).toBeGreaterThan(3 * DAY - HOUR);
    const funding = await info.fundingHistory({ coin: 'BTC', startTime: Date.now() - 5 * DAY });
    expect(Date.now() - funding.at(-1)!.time).toBeGreaterThan(3 * DAY - HOUR);
  });
});

describe('WebSocket subscriptions through SubscriptionClient + WebSocketTransport', () => {
  let fake: HyperliquidReplay;

  beforeAll(async () => {
    fake = await start();
  });

  it('on Node 20 the transport needs the ws constructor: without it the constructor throws TypeError', () => {
    expect(typeof (globalThis as { WebSocket?: unknown }).WebSocket).toBe('undefined');
    expect(() => new hl.WebSocketTransport({ url: fake.wsUrl })).toThrow(TypeError);
  });

  it('subscribe → ack → snapshot → pushes → unsubscribe, for allMids, l2Book, candle and activeAssetCtx', async () => {
    const transport = track(wsTransport(fake));
    const subs = new hl.SubscriptionClient({ transport });
    const mids: hl.AllMidsWsEvent[] = [];
    const books: hl.L2BookWsEvent[] = [];
    const candles: Parameters<Parameters<typeof subs.candle>[1]>[0][] = [];
    const ctxs: Parameters<Parameters<typeof subs.activeAssetCtx>[1]>[0][] = [];

    const s1 = await subs.allMids((e) => mids.push(e));
    const s2 = await subs.l2Book({ coin: 'ETH' }, (e) => books.push(e));
    const s3 = await subs.candle({ coin: 'BTC', interval: '1m' }, (e) => candles.push(e));
    const s4 = await subs.activeAssetCtx({ coin: 'SOL' }, (e) => ctxs.push(e));
    expect(fake.controls.wsConnections()).toBe(1);
    expect(fake.controls.wsSubscriptions().map((s) => s.subscription)).toEqual([
      { type: 'allMids' },
      { type: 'l2Book', coin: 'ETH', nSigFigs: null, mantissa: null },
      { type: 'candle', coin: 'BTC', interval: '1m' },
      { type: 'activeAssetCtx', coin: 'SOL' },
    ]);
    await until(() => mids.length === 1 && books.length === 1 && candles.length === 1 && ctxs.length === 1, 2000, 'snapshots');

    expect(fake.controls.pushAllMids({ BTC: 31000 })).toBe(1);
    expect(fake.controls.pushL2Book('ETH')).toBe(1);
    expect(fake.controls.pushL2Book('BTC')).toBe(0);
    expect(fake.controls.pushCandle('BTC', '1m')).toBe(1);
    expect(fake.controls.pushCandle('BTC', '5m')).toBe(0);
    expect(fake.controls.pushActiveAssetCtx('SOL')).toBe(1);
    await until(() => mids.length === 2 && books.length === 2 && candles.length === 2 && ctxs.length === 2, 2000, 'pushes');

    expect(mids[1]!.mids.BTC).toBe('31000.0');
    expect(mids[1]!.dex).toBeUndefined();
    L2Book.parse(books[1]);
    Candle.parse(candles[1]);
    expect(candles[1]).toMatchObject({ s: 'BTC', i: '1m' });
    expect(ctxs[1]!.coin).toBe('SOL');
    PerpAssetCtx.parse(ctxs[1]!.ctx);

    await s2.unsubscribe();
    expect(fake.controls.pushL2Book('ETH')).toBe(0);
    await Promise.all([s1.unsubscribe(), s3.unsubscribe(), s4.unsubscribe()]);
    expect(fake.controls.wsSubscriptions()).toEqual([]);
    const methods = fake.controls.wsReceived().map((m) => (m.message as { method: string }).method);
    expect(methods.filter((m) => m === 'subscribe')).toHaveLength(4);
    expect(methods.filter((m) => m === 'unsubscribe')).toHaveLength(4);
  });

  it('one wire subscription per distinct payload: a second listener shares it, the last unsubscribe removes it', async () => {
    const transport = track(wsTransport(fake));
    const subs = new hl.SubscriptionClient({ transport });
    const a: unknown[] = [];
    const b: unknown[] = [];
    const before = fake.controls.wsReceived().length;
    fake.controls.setSnapshotOnSubscribe(false);
    const s1 = await subs.l2Book({ coin: 'kPEPE' }, (e) => a.push(e)).finally(() => fake.controls.setSnapshotOnSubscribe(true));
    const s2 = await subs.l2Book({ coin: 'kPEPE' }, (e) => b.push(e));
    expect(fake.controls.wsReceived().slice(before)).toHaveLength(1);
    fake.controls.pushL2Book('kPEPE');
    await until(() => a.length === 1 && b.length === 1, 2000, 'both listeners');
    await s1.unsubscribe();
    expect(fake.controls.wsSubscriptions().filter((s) => s.subscription.coin === 'kPEPE')).toHaveLength(1);
    await s2.unsubscribe();
    expect(fake.controls.wsSubscriptions().filter((s) => s.subscription.coin === 'kPEPE')).toHaveLength(0);
  });

  it('reconnects and resubscribes by itself after the venue closes the stream; observable through transport.socket events', async () => {
    const transport = track(wsTransport(fake));
    const subs = new hl.SubscriptionClient({ transport });
    const books: hl.L2BookWsEvent[] = [];
    const events: string[] = [];
    transport.socket.addEventListener('close', () => events.push('close'));
    transport.socket.addEventListener('open', () => events.push('open'));
    const sub = await subs.l2Book({ coin: 'BTC' }, (e) => books.push(e));
    await until(() => books.length === 1, 2000, 'snapshot');
    const connectionBefore = fake.controls.wsSubscriptions().find((s) => s.subscription.coin === 'BTC')!.connection;

    const killedAt = Date.now();
    expect(fake.controls.killStreams({ abrupt: true })).toBeGreaterThan(0);
    await until(() => fake.controls.wsSubscriptions().some((s) => s.subscription.coin === 'BTC' && s.connection !== connectionBefore), 5000, 'resubscribe');
    const resubscribedIn = Date.now() - killedAt;
    expect(events).toEqual(['open', 'close', 'open']);
    expect(resubscribedIn).toBeGreaterThanOrEqual(140);
    expect(resubscribedIn).toBeLessThan(2000);
    await until(() => books.length === 2, 2000, 'snapshot after resubscribe');

    fake.controls.pushL2Book('BTC');
    await until(() => books.length === 3, 2000, 'push after reconnect');
    expect(sub.failureSignal.aborted).toBe(false);
    expect(transport.socket.readyState).toBe(1);
  });

  it('a push cut mid-frame is lost and the connection is torn down; the SDK reconnects and resubscribes', async () => {
    const transport = track(wsTransport(fake));
    const subs = new hl.SubscriptionClient({ transport });
    const mids: hl.AllMidsWsEvent[] = [];
    let closes = 0;
    transport.socket.addEventListener('close', () => closes++);
    await subs.allMids((e) => mids.push(e));
    await until(() => mids.length === 1, 2000, 'snapshot');
    fake.controls.cutNextPush();
    expect(fake.controls.pushAllMids()).toBeGreaterThan(0);
    await until(() => closes === 1, 2000, 'close');
    await until(() => mids.length === 2, 5000, 'snapshot after resubscribe');
    expect(mids[1]!.mids).toEqual((await infoClient(fake).allMids()) as Record<string, string>);
  });

  it('gives up after maxRetries refused reconnects: `terminate` event (RECONNECTION_LIMIT), listeners dropped', async () => {
    const transport = track(wsTransport(fake, { reconnect: { maxRetries: 2, reconnectionDelay: 20 } }));
    const subs = new hl.SubscriptionClient({ transport });
    const sub = await subs.candle({ coin: 'ETH', interval: '1h' }, () => undefined);
    const terminated = new Promise<Error>((resolve) => transport.socket.addEventListener('terminate', (e) => resolve((e as CustomEvent<Error>).detail)));
    fake.controls.refuseConnections(10);
    fake.controls.killStreams({ abrupt: true });
    const reason = await terminated;
    expect(reason.name).toBe('ReconnectingWebSocketError');
    expect((reason as Error & { code: string }).code).toBe('RECONNECTION_LIMIT');
    expect(transport.socket.isTerminated).toBe(true);
    // failureSignal fires only when a resubscribe is answered with an error, not on termination.
    expect(sub.failureSignal.aborted).toBe(false);
    fake.controls.refuseConnections(0);
    // A later request rejects with the termination reason itself (not wrapped in WebSocketRequestError).
    const error = await caught(subs.allMids(() => undefined));
    expect(error).toBe(transport.socket.terminationReason);
  });

  it('keepalive: the SDK sends {"method":"ping"} every 30 s and the fake answers {"channel":"pong"}', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const transport = track(wsTransport(fake));
    await transport.ready();
    const before = fake.controls.wsReceived().length;
    const pongs: number[] = [];
    transport.socket.addEventListener('message', (e) => {
      if (String((e as MessageEvent).data) === '{"channel":"pong"}') pongs.push(Date.now());
    });
    vi.advanceTimersByTime(29_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.controls.wsReceived().slice(before)).toEqual([]);
    vi.advanceTimersByTime(1_000);
    await until(() => pongs.length === 1, 2000, 'pong');
    expect(
      fake.controls
        .wsReceived()
        .slice(before)
        .map((m) => m.message),
    ).toEqual([{ method: 'ping' }]);
  });

  it('the venue drops a silent connection (idle timeout); the SDK reconnects', async () => {
    const idle = await start({ idleTimeoutMs: 300 });
    const transport = track(wsTransport(idle));
    let opens = 0;
    transport.socket.addEventListener('open', () => opens++);
    await transport.ready();
    await until(() => opens >= 2, 3000, 'reconnect after idle close');
    expect(idle.controls.wsConnections()).toBe(1);
  });

  it('info requests also run over the WebSocket (post requests)', async () => {
    const transport = track(wsTransport(fake));
    const info = new hl.InfoClient({ transport });
    const mids = await info.allMids();
    expect(mids.BTC).toBeDefined();
    const book = await info.l2Book({ coin: 'DYDX' });
    expect(book?.levels[0]).toHaveLength(20);
    const error = await caught(info.fundingHistory({ coin: 'NOPE', startTime: 0 }));
    expect(error).toBeInstanceOf(hl.WebSocketRequestError);
  });
});

describe('ExchangeClient against the /exchange hook (for the order-routing fake to come)', () => {
  const wallet = privateKeyToAccount(`0x${'11'.repeat(32)}`);
  const ZERO = '0x0000000000000000000000000000000000000000';
  const bodies: any[] = [];
  let fake: HyperliquidReplay;

  beforeAll(async () => {
    fake = await start({
      exchange: (body: any) => {
        bodies.push(body);
        const action = body.action;
        if (action.type === 'order') {
          return {
            status: 200,
            body: JSON.stringify({
              status: 'ok',
              response: {
                type: 'order',
                data: {
                  statuses: action.orders.map((o: any, i: number) =>
                    o.p === '1' ? { error: 'Order has invalid price.' } : { resting: { oid: 1000 + i, cloid: o.c } },
                  ),
                },
              },
            }),
          };
        }
        return { status: 200, body: JSON.stringify({ status: 'ok', response: { type: 'cancel', data: { statuses: action.cancels.map(() => 'success') } } }) };
      },
    });
  });

  async function signer(body: any, isTestnet: boolean): Promise<string> {
    const connectionId = createL1ActionHash({ action: body.action, nonce: body.nonce, vaultAddress: body.vaultAddress, expiresAfter: body.expiresAfter });
    const { r, s, v } = body.signature as { r: Hex; s: Hex; v: number };
    return recoverTypedDataAddress({
      domain: { name: 'Exchange', version: '1', chainId: 1337, verifyingContract: ZERO },
      types: {
        Agent: [
          { name: 'source', type: 'string' },
          { name: 'connectionId', type: 'bytes32' },
        ],
      },
      primaryType: 'Agent',
      message: { source: isTestnet ? 'b' : 'a', connectionId },
      signature: `${r}${s.slice(2)}${v.toString(16)}` as Hex,
    });
  }

  it('order: L1 action signed with a viem account (EIP-712 "Exchange", chainId 1337, source "a" mainnet / "b" testnet)', async () => {
    const cloid = `0x${'ab'.repeat(16)}` as const;
    for (const isTestnet of [false, true]) {
      const exchange = new hl.ExchangeClient({ transport: new hl.HttpTransport({ apiUrl: fake.httpUrl, isTestnet }), wallet });
      const result = await exchange.order({
        orders: [{ a: 0, b: true, p: '30000.50', s: '0.0010', r: false, t: { limit: { tif: 'Gtc' } }, c: cloid }],
        grouping: 'na',
      });
      expect(result.response.data.statuses).toEqual([{ resting: { oid: 1000, cloid } }]);
      const body = bodies.at(-1);
      expect(Object.keys(body)).toEqual(['action', 'signature', 'nonce']);
      expect(body.action).toEqual({
        type: 'order',
        orders: [{ a: 0, b: true, p: '30000.5', s: '0.001', r: false, t: { limit: { tif: 'Gtc' } }, c: cloid }],
        grouping: 'na',
      });
      expect(JSON.stringify(body.action.orders[0])).toBe(`{"a":0,"b":true,"p":"30000.5","s":"0.001","r":false,"t":{"limit":{"tif":"Gtc"}},"c":"${cloid}"}`);
      expect(Math.abs(body.nonce - Date.now())).toBeLessThan(5000);
      expect((await signer(body, isTestnet)).toLowerCase()).toBe(wallet.address.toLowerCase());
      expect((await signer(body, !isTestnet)).toLowerCase()).not.toBe(wallet.address.toLowerCase());
    }
    expect(fake.controls.requests().at(-1)).toMatchObject({ path: '/exchange', type: 'order', weight: 1 });
  });

  it('an error status inside an ok answer throws ApiRequestError with the raw response', async () => {
    const exchange = new hl.ExchangeClient({ transport: new hl.HttpTransport({ apiUrl: fake.httpUrl }), wallet });
    const e = await caught(exchange.order({ orders: [{ a: 1, b: false, p: '1', s: '1', r: false, t: { limit: { tif: 'Ioc' } } }] }));
    expect(e).toBeInstanceOf(hl.ApiRequestError);
    expect((e as Error).message).toBe('Order 0: Order has invalid price.');
    expect((e as hl.ApiRequestError).response).toMatchObject({ status: 'ok' });
  });

  it('cancel and cancelByCloid: action shapes', async () => {
    const exchange = new hl.ExchangeClient({ transport: new hl.HttpTransport({ apiUrl: fake.httpUrl }), wallet });
    await exchange.cancel({ cancels: [{ a: 3, o: 123 }] });
    expect(bodies.at(-1).action).toEqual({ type: 'cancel', cancels: [{ a: 3, o: 123 }] });
    await exchange.cancelByCloid({ cancels: [{ asset: 3, cloid: `0x${'CD'.repeat(16)}` }] });
    expect(bodies.at(-1).action).toEqual({ type: 'cancelByCloid', cancels: [{ asset: 3, cloid: `0x${'cd'.repeat(16)}` }] });
    expect((await signer(bodies.at(-1), false)).toLowerCase()).toBe(wallet.address.toLowerCase());
    expect(() => exchange.cancelByCloid({ cancels: [{ asset: 3, cloid: '0x1234' }] })).toThrow(hl.ValidationError);
  });
});
