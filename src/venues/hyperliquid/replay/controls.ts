import { createExchangeControls, type ExchangeControls } from './exchange-controls.js';
import type { FakeExchange } from './exchange.js';
import type { FaultFilter, FaultQueue } from './faults.js';
import type { HttpState, VenuePath } from './http.js';
import type { ReceivedMessage, ReplayStreams, StreamSubscription } from './streams.js';
import type { MinuteTotals, RecordedRequest, TrafficLog } from './traffic.js';
import type { NewAsset, ReplayVenue } from './venue.js';
import type { BookLevel, Candle, CandleInterval, FundingItem, PerpAssetCtx } from './wire.js';

/** The test-side handle on a running fake: faults to inject, venue changes, pushes, observations, and the fake exchange's (exchange-controls.ts). */
export interface HyperliquidReplayControls extends ExchangeControls {
  // ---- HTTP faults (each applies to the next `n` requests matching `filter`; queued in order) ----
  /** 429 `Too Many Requests` with `Retry-After: <retryAfterSeconds>`. */
  rateLimitNext(n: number, retryAfterSeconds?: number, filter?: FaultFilter): void;
  /** 500 (or `status`) with a plain-text body. */
  serverErrorNext(n: number, options?: { status?: number; body?: string }, filter?: FaultFilter): void;
  /** Never answer (the response stays open until the client gives up or the fake closes). */
  hangNext(n: number, filter?: FaultFilter): void;
  /** 200 application/json whose body is the real answer cut in half. */
  malformedJsonNext(n: number, filter?: FaultFilter): void;
  /** 200 with another content type (default an HTML page). */
  wrongContentTypeNext(n: number, options?: { contentType?: string; body?: string }, filter?: FaultFilter): void;
  /** Faults still queued. */
  pendingFaults(): number;
  clearFaults(): void;
  /** Answer 429 (with Retry-After) once the sliding minute's weight would pass `limit`; null turns it off (the default). */
  enforceWeightLimit(limit: number | null): void;
  /**
   * A fixed venue round trip: every request to `path` (/exchange, /info, or both, the default)
   * waits `ms` before it is answered, faults included; 0 removes it (the default).
   */
  setLatency(ms: number, path?: VenuePath | 'both'): void;

  // ---- the venue's clock ----
  /** The venue's now (ms). */
  now(): number;
  /** Shift every venue timestamp by `offsetMs` (negative: a clock far behind). */
  setClockOffset(offsetMs: number): void;
  /** Freeze the venue's clock at `time` (before the offset); null lets it run with the machine's again. */
  setNow(time: number | null): void;

  // ---- venue data ----
  /** Leave out the minutes without trades: a share `ratio` (0–1) of minutes are empty, for `coin` or every coin. */
  setSparseCandles(ratio: number, coin?: string): void;
  /** List a new perp at the end of the universe; returns its asset index. */
  listAsset(asset: NewAsset): number;
  /** Delist a perp (kept in the universe with `isDelisted: true`); returns its asset index. */
  delistAsset(name: string): number;
  /** Make `coin`'s funding history exactly `count` hourly items (default 500) ending before now. */
  exactFundingHistory(coin: string, count?: number): FundingItem[];
  /** Set mids (numbers are formatted for the asset) without pushing. */
  setMids(changes: Record<string, string | number>): void;
  /** The asset names in universe order (index = asset id). */
  assetNames(): string[];

  // ---- stream pushes (each returns the number of messages sent) ----
  /** Move mids (given ones, or every perp by a small deterministic step) and push allMids. */
  pushAllMids(changes?: Record<string, string | number>): number;
  /** Replace `coin`'s book (given levels, or the next synthesized version) and push it to its subscribers. */
  pushL2Book(coin: string, levels?: [BookLevel[], BookLevel[]]): number;
  /** Push `coin`'s current `interval` candle (or `candle`). */
  pushCandle(coin: string, interval: CandleInterval, candle?: Candle): number;
  /** Push `coin`'s context (replaced by `ctx` when given). */
  pushActiveAssetCtx(coin: string, ctx?: PerpAssetCtx): number;

  // ---- stream faults ----
  /** Close every stream: `abrupt` drops TCP (client sees 1006), else a close frame (default code 1012). Returns how many. */
  killStreams(options?: { abrupt?: boolean; code?: number; reason?: string }): number;
  /** The next push is written as half a frame and each receiving connection is torn down. */
  cutNextPush(): void;
  /** Refuse the next `n` WebSocket upgrades with 503. */
  refuseConnections(n: number): void;
  /** Close connections silent for `ms` (the venue: about 60 s; null: never). */
  setIdleTimeout(ms: number | null): void;
  /** Send the current state right after a subscription's ack (default true). */
  setSnapshotOnSubscribe(on: boolean): void;

  // ---- observation ----
  /** Every HTTP request received, in order. */
  requests(): RecordedRequest[];
  clearRequests(): void;
  /** Weight charged over the last `windowMs` (default 60 s, the venue's window). */
  weightInWindow(windowMs?: number): number;
  /** Requests and weight per calendar minute. */
  weightPerMinute(): MinuteTotals[];
  /** Open WebSocket connections. */
  wsConnections(): number;
  /** Live subscriptions, as the clients sent them. */
  wsSubscriptions(): StreamSubscription[];
  /** Every WebSocket message received, in order. */
  wsReceived(): ReceivedMessage[];
}

export function createControls(
  venue: ReplayVenue,
  http: HttpState,
  faults: FaultQueue,
  traffic: TrafficLog,
  streams: ReplayStreams,
  exchange?: FakeExchange,
): HyperliquidReplayControls {
  let tick = 0;
  return {
    ...createExchangeControls(exchange, streams),
    rateLimitNext: (n, retryAfterSeconds = 1, filter) => faults.add({ kind: 'rateLimit', retryAfterSeconds }, n, filter),
    serverErrorNext: (n, options = {}, filter) =>
      faults.add({ kind: 'serverError', status: options.status ?? 500, body: options.body ?? 'Internal Server Error' }, n, filter),
    hangNext: (n, filter) => faults.add({ kind: 'hang' }, n, filter),
    malformedJsonNext: (n, filter) => faults.add({ kind: 'malformedJson' }, n, filter),
    wrongContentTypeNext: (n, options = {}, filter) =>
      faults.add(
        {
          kind: 'wrongContentType',
          contentType: options.contentType ?? 'text/html; charset=utf-8',
          body: options.body ?? '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
        },
        n,
        filter,
      ),
    pendingFaults: () => faults.pending(),
    clearFaults: () => faults.clear(),
    enforceWeightLimit: (limit) => {
      http.weightLimit = limit;
    },
    setLatency: (ms, path = 'both') => {
      if (!Number.isFinite(ms) || ms < 0) throw new Error(`setLatency: expected a delay of 0 ms or more, got ${ms}`);
      for (const p of path === 'both' ? (['/info', '/exchange'] as const) : [path]) http.latencyMs[p] = ms;
    },

    now: () => venue.now(),
    setClockOffset: (offsetMs) => venue.setClock({ offsetMs }),
    setNow: (time) => venue.setClock({ now: time }),

    setSparseCandles: (ratio, coin) => venue.setSparse(ratio, coin),
    listAsset: (asset) => venue.listAsset(asset),
    delistAsset: (name) => venue.delistAsset(name),
    exactFundingHistory: (coin, count = 500) => {
      const asset = venue.asset(coin);
      if (!asset) throw new Error(`no asset ${coin}`);
      return venue.exactFunding(asset, count);
    },
    setMids: (changes) => void venue.moveMids(changes),
    assetNames: () => venue.assets.map((a) => a.name),

    pushAllMids: (changes) => {
      venue.moveMids(changes, ++tick);
      return streams.pushAllMids();
    },
    pushL2Book: (coin, levels) => streams.pushL2Book(coin, levels),
    pushCandle: (coin, interval, candle) => streams.pushCandle(coin, interval, candle),
    pushActiveAssetCtx: (coin, ctx) => streams.pushActiveAssetCtx(coin, ctx),

    killStreams: (options) => streams.killAll(options),
    cutNextPush: () => streams.cutNextPush(),
    refuseConnections: (n) => streams.refuseConnections(n),
    setIdleTimeout: (ms) => streams.setIdleTimeout(ms),
    setSnapshotOnSubscribe: (on) => streams.setSnapshotOnSubscribe(on),

    requests: () => traffic.all(),
    clearRequests: () => traffic.clear(),
    weightInWindow: (windowMs = 60_000) => traffic.weightWithin(windowMs),
    weightPerMinute: () => traffic.perMinute(),
    wsConnections: () => streams.connections(),
    wsSubscriptions: () => streams.subscriptions(),
    wsReceived: () => streams.received(),
  };
}
