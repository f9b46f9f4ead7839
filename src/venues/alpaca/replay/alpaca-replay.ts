/**
 * A wire-level fake of Alpaca for tests: the market-data REST API (data.alpaca.markets), the
 * paper-trading REST API (paper-api.alpaca.markets), the trading stream (`/stream` on the trading
 * host) and the stock data stream (`/v2/{feed}` on stream.data.alpaca.markets), each on 127.0.0.1
 * with an ephemeral port, serving recorded data (test/fixtures/alpaca) and a small order simulation,
 * with controls to inject the faults a client must survive.
 *
 * Point `@alpacahq/alpaca-trade-api` v4 at it with `new Alpaca({ ...replay.sdkOptions })` (its
 * `fetchApi` maps the two Alpaca REST hosts to the fake and refuses every other host) and the
 * streams' `url` options (`replay.urls.tradingStream`, `replay.urls.stockStream`). See README.md
 * beside this file.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DataStreamServer } from './data-stream.js';
import { FaultBook, type FaultTarget } from './http-faults.js';
import { startApiServer, type ApiServer, type RecordedHttpRequest } from './http-server.js';
import { marketDataRoutes, type DataPlan } from './market-data-api.js';
import type { WireBar, WireQuote, WireTrade } from './market-data-store.js';
import { loadRecordingDir, type Recording } from './recording.js';
import { seedMarketData } from './seed-market-data.js';
import { tradingRoutes } from './trading-api.js';
import { stableUuid, type WireAsset, type WireOrder, type WireTradeUpdate } from './trading-shapes.js';
import { TradingStreamServer } from './trading-stream.js';
import { TradingVenue, type AutoFill, type NextOrderRejection } from './trading-venue.js';
import { VenueClock, type MarketOpenSetting } from './venue-clock.js';
import { errors } from './venue-errors.js';

export interface AlpacaReplayOptions {
  /** Credentials the fake accepts (REST headers and stream auth). Defaults: `replay-key-id` / `replay-secret`. */
  keyId?: string;
  secret?: string;
  /** Folder of the recordings; defaults to the repository's test/fixtures/alpaca. */
  fixturesDir?: string;
  /** Starting cash of the paper account (default `"100000"`). */
  initialCash?: string;
  /** Market open (default `true`, so market orders fill), closed, or `auto` (New York weekday 09:30–16:00). */
  marketOpen?: MarketOpenSetting;
  /** Market-data plan: `free` (default; IEX, no recent SIP, one stream connection) or `unlimited`. */
  dataPlan?: DataPlan;
  /** Authenticated data-stream connections at once (default: 1 on the free plan, 1000 otherwise). */
  dataStreamConnectionLimit?: number;
  /** How long the data stream waits for auth before it closes (Alpaca: 10 s). */
  dataStreamAuthTimeoutMs?: number;
  /** Frame type of the trading stream (Alpaca's docs: binary). */
  tradingStreamFrames?: 'binary' | 'text';
}

export interface AlpacaReplayUrls {
  /** Stands for https://paper-api.alpaca.markets. */
  trading: string;
  /** Stands for https://data.alpaca.markets. */
  data: string;
  /** Stands for wss://paper-api.alpaca.markets/stream (the SDK's `TradingStream` `url`). */
  tradingStream: string;
  /** Stands for wss://stream.data.alpaca.markets. */
  dataStreamHost: string;
  /** Stands for wss://stream.data.alpaca.markets/v2/iex (the SDK's `StockDataStream` `url`). */
  stockStream: string;
}

/** A `fetch` with the SDK's `fetchApi` signature. */
export type ReplayFetch = (url: string, init?: RequestInit) => Promise<Response>;

type ApiTarget = Omit<FaultTarget, 'times'> & { times?: number };

export interface AlpacaReplayControls {
  http: {
    /** The next `times` matching requests answer 429 with `Retry-After` (seconds) and Alpaca's body. */
    rateLimit(target?: ApiTarget & { retryAfterSeconds?: number }): void;
    /** The next matching requests answer `status` (default 500) with Alpaca's body. */
    serverError(target?: ApiTarget & { status?: number }): void;
    /** The next matching requests are never answered (the client's timeout fires). */
    hang(target?: ApiTarget): void;
    /** The next matching requests answer 200 with a truncated JSON body. */
    malformedJson(target?: ApiTarget): void;
    /** The next matching requests answer with another content type (default: a 200 HTML page). */
    wrongContentType(target?: ApiTarget & { status?: number; contentType?: string; body?: string }): void;
    /** The next matching requests lose their connection without an answer. */
    resetConnection(target?: ApiTarget): void;
    /** The next `POST /v2/orders` books the order (and publishes its events) but never answers. */
    acceptOrderThenHang(times?: number): void;
    /** Every request of `api` (default trading) waits `ms` before it is answered: a fixed venue round trip. */
    setLatency(ms: number, api?: 'trading' | 'data'): void;
    clearFaults(): void;
    /** Requests received, oldest first, optionally filtered. */
    requests(filter?: { api?: 'trading' | 'data'; method?: string; path?: string | RegExp }): RecordedHttpRequest[];
    clearRequests(): void;
    /** URLs the `fetch` of {@link AlpacaReplay.sdkOptions} refused to dial (not the fake's hosts). */
    refusedUrls(): string[];
  };
  clock: {
    setMarketOpen(open: MarketOpenSetting): void;
    /** Venue time = machine time + ms (e.g. `-3_600_000`: the venue's clock is an hour behind). */
    setOffsetMs(ms: number): void;
    now(): Date;
  };
  market: {
    /** New last trade at `price` (quote one cent either side), published on the stream; resting limit orders that cross fill. */
    setPrice(symbol: string, price: number): { trade: WireTrade; quote: WireQuote };
    /** Replaces a symbol's minute or daily history. */
    setBars(symbol: string, base: '1Min' | '1Day', bars: WireBar[]): void;
    /** Publishes a bar on the data stream (`b` minute, `u` updated, `d` daily). */
    publishBar(symbol: string, bar: WireBar, kind?: 'b' | 'u' | 'd'): void;
    setDataPlan(plan: DataPlan): void;
  };
  orders: {
    /** Every order, newest first. */
    all(): WireOrder[];
    /** Fills an open order (the remainder by default; less makes a partial fill) at `price` (default: its limit, else the quote). */
    fill(id: string, options?: { qty?: string | number; price?: string | number }): WireOrder;
    /** Venue-side rejection of an open order (`rejected` event). */
    reject(id: string): WireOrder;
    expire(id: string): WireOrder;
    /** Venue-side cancel of an open or pending_cancel order (`canceled` event). */
    cancel(id: string): WireOrder;
    /** What the next order submission does instead of the normal path. */
    rejectNext(rejection: NextOrderRejection): void;
    /** While on, DELETE leaves orders `pending_cancel` until `cancel` or `fill`. */
    holdCancels(hold: boolean): void;
    setAutoFill(autoFill: Partial<AutoFill>): void;
    setCash(cash: string): void;
    /** Every trade update published, oldest first (delivered or not). */
    tradeUpdates(): WireTradeUpdate[];
  };
  streams: {
    /** Cuts every trading-stream connection (abnormal close: the SDK reconnects). */
    dropTrading(): void;
    /** The next trade update is lost: every trading-stream connection is cut instead of receiving it. */
    dropTradingBeforeNextEvent(): void;
    dropData(): void;
    connections(): { trading: number; data: number; tradingListeners: number };
    dataSubscriptions(): Record<string, string[]>;
    /** Frames the clients sent (decoded), oldest first. */
    received(): { trading: unknown[]; data: unknown[] };
  };
}

export interface AlpacaReplay {
  urls: AlpacaReplayUrls;
  credentials: { keyId: string; secret: string };
  /** Spread into `new Alpaca({...})`: credentials, `paper: true` and the loopback `fetchApi`. */
  sdkOptions: { keyId: string; secret: string; paper: true; fetchApi: ReplayFetch };
  /** The loopback fetch alone (maps paper-api / data hosts to the fake, refuses any other host). */
  fetch: ReplayFetch;
  controls: AlpacaReplayControls;
  close(): Promise<void>;
}

/** The repository's test/fixtures/alpaca, from src/ (tsx, vitest) or dist/src/ (compiled). */
function defaultFixturesDir(): string {
  for (const up of ['../../../../test/fixtures/alpaca', '../../../../../test/fixtures/alpaca']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(dir)) return dir;
  }
  throw new Error('Alpaca replay: test/fixtures/alpaca not found; pass fixturesDir');
}

function recordedResponse<T>(recordings: ReadonlyMap<string, Recording>, name: string): T {
  const found = recordings.get(name);
  if (!found) throw new Error(`Alpaca replay: recording ${name}.json is missing`);
  return found.response as T;
}

/** AAPL as recorded (id, name, exchange); the others synthesized; ZVZZT (a test symbol) is not fractionable, ZWZZT inactive. */
function buildAssets(recordings: ReadonlyMap<string, Recording>): WireAsset[] {
  const aapl = recordedResponse<{ id: string; name: string; exchange: string }>(recordings, 'assets-symbol');
  const asset = (symbol: string, name: string, exchange: string, extra: Partial<WireAsset> = {}): WireAsset => ({
    id: stableUuid(`asset:${symbol}`),
    class: 'us_equity',
    exchange,
    symbol,
    name,
    status: 'active',
    tradable: true,
    marginable: true,
    maintenance_margin_requirement: 30,
    margin_requirement_long: '30',
    margin_requirement_short: '30',
    shortable: true,
    easy_to_borrow: true,
    fractionable: true,
    attributes: ['fractional_eh_enabled', 'has_options'],
    ...extra,
  });
  return [
    asset('AAPL', aapl.name, aapl.exchange, { id: aapl.id }),
    asset('MSFT', 'Microsoft Corporation Common Stock', 'NASDAQ'),
    asset('SPY', 'SPDR S&P 500 ETF Trust', 'ARCA'),
    asset('TSLA', 'Tesla, Inc. Common Stock', 'NASDAQ'),
    asset('ZVZZT', 'NASDAQ TEST STOCK', 'NASDAQ', { fractionable: false, shortable: false, easy_to_borrow: false, marginable: false, attributes: [] }),
    asset('ZWZZT', 'NASDAQ TEST STOCK (inactive)', 'NASDAQ', { status: 'inactive', tradable: false, fractionable: false, attributes: [] }),
  ];
}

const REST_HOSTS: Record<string, 'trading' | 'data'> = {
  'https://paper-api.alpaca.markets': 'trading',
  'https://data.alpaca.markets': 'data',
};

export async function startAlpacaReplay(options: AlpacaReplayOptions = {}): Promise<AlpacaReplay> {
  const keyId = options.keyId ?? 'replay-key-id';
  const secret = options.secret ?? 'replay-secret';
  const recordings = loadRecordingDir(options.fixturesDir ?? defaultFixturesDir());
  const store = seedMarketData(recordings);
  const clock = new VenueClock(options.marketOpen ?? true);
  let dataPlan: DataPlan = options.dataPlan ?? 'free';
  const faults = new FaultBook();
  const log: RecordedHttpRequest[] = [];
  const refused: string[] = [];
  const published: WireTradeUpdate[] = [];
  const received = { trading: [] as unknown[], data: [] as unknown[] };
  const verify = (k: string, s: string): boolean => k === keyId && s === secret;

  // ZVZZT trades at a fixed synthesized price (it is not in the market-data recordings).
  store.setPrice('ZVZZT', 10, new Date('2022-03-18T14:30:00Z'));

  const tradingStream = new TradingStreamServer({ verify, frames: options.tradingStreamFrames ?? 'binary', received: received.trading });
  const venue = new TradingVenue({
    market: store,
    now: () => clock.now(),
    isOpen: () => clock.isOpen(),
    publish: (update) => {
      published.push(update);
      tradingStream.publish(update);
    },
    assets: buildAssets(recordings),
    accountTemplate: recordedResponse<Record<string, unknown>>(recordings, 'account'),
    initialCash: options.initialCash ?? '100000',
  });

  const headerAuth =
    (denied: () => ReturnType<typeof errors.unauthorized>) =>
    (headers: IncomingHttpHeaders): ReturnType<typeof errors.unauthorized> | undefined =>
      headers['apca-api-key-id'] === keyId && headers['apca-api-secret-key'] === secret ? undefined : denied();

  const latency = { trading: 0, data: 0 };
  const trading: ApiServer = await startApiServer({
    api: 'trading',
    routes: tradingRoutes(venue, clock),
    faults,
    log,
    authenticate: headerAuth(errors.unauthorized),
    notFound: errors.notFoundRoute,
    internalError: errors.internal,
    rateLimitPerMinute: 200,
    latencyMs: () => latency.trading,
  });
  const data: ApiServer = await startApiServer({
    api: 'data',
    routes: marketDataRoutes({ store, now: () => clock.now(), plan: () => dataPlan }),
    faults,
    log,
    authenticate: headerAuth(errors.dataForbidden),
    notFound: () => ({ status: 404, body: { message: 'Not Found' } }),
    internalError: errors.dataInternal,
    rateLimitPerMinute: 200,
    latencyMs: () => latency.data,
  });
  tradingStream.attach(trading.server, '/stream');

  const dataStream = new DataStreamServer({
    verify,
    connectionLimit: () => options.dataStreamConnectionLimit ?? (dataPlan === 'free' ? 1 : 1000),
    authTimeoutMs: options.dataStreamAuthTimeoutMs ?? 10_000,
    feeds: ['iex', 'sip', 'delayed_sip', 'test'],
    received: received.data,
  });
  const streamHttp = createServer((_req, res) => {
    res.writeHead(426, { 'Content-Type': 'text/plain' });
    res.end('Upgrade Required');
  });
  dataStream.attach(streamHttp);
  await new Promise<void>((resolve, reject) => {
    streamHttp.once('error', reject);
    streamHttp.listen(0, '127.0.0.1', () => resolve());
  });
  const streamPort = (streamHttp.address() as AddressInfo).port;

  const urls: AlpacaReplayUrls = {
    trading: trading.url,
    data: data.url,
    tradingStream: `${trading.url.replace(/^http/, 'ws')}/stream`,
    dataStreamHost: `ws://127.0.0.1:${streamPort}`,
    stockStream: `ws://127.0.0.1:${streamPort}/v2/iex`,
  };
  const local = new Set([trading.url, data.url]);

  const replayFetch: ReplayFetch = async (input, init) => {
    const url = new URL(input);
    const api = REST_HOSTS[url.origin];
    if (api) return fetch(new URL(`${url.pathname}${url.search}`, api === 'trading' ? trading.url : data.url), init);
    if (local.has(url.origin)) return fetch(url, init);
    refused.push(input);
    throw new TypeError(`Alpaca replay: refusing to dial ${url.origin}: only the fake's loopback hosts are allowed`);
  };

  const arm = (target: ApiTarget | undefined, spec: Parameters<FaultBook['arm']>[1]): void => faults.arm(target ?? {}, spec);
  const statusBody = (api: ApiTarget['api'], trading_: () => { body: Record<string, unknown> }, data_: () => { body: Record<string, unknown> }) =>
    api === 'data' ? data_().body : trading_().body;

  const controls: AlpacaReplayControls = {
    http: {
      rateLimit: (target = {}) =>
        arm(target, {
          kind: 'status',
          status: 429,
          body: statusBody(target.api, errors.rateLimited, errors.dataRateLimited),
          headers: { 'Retry-After': String(target.retryAfterSeconds ?? 1), 'X-RateLimit-Limit': '200', 'X-RateLimit-Remaining': '0' },
        }),
      serverError: (target = {}) =>
        arm(target, { kind: 'status', status: target.status ?? 500, body: statusBody(target.api, errors.internal, errors.dataInternal) }),
      hang: (target) => arm(target, { kind: 'hang' }),
      setLatency: (ms, api = 'trading') => {
        latency[api] = ms;
      },
      malformedJson: (target) =>
        arm(target, {
          kind: 'raw',
          status: 200,
          contentType: 'application/json; charset=UTF-8',
          body: '{"bars":{"AAPL":[{"t":"2022-02-01T05:00:00Z","o":174,',
        }),
      wrongContentType: (target = {}) =>
        arm(target, {
          kind: 'raw',
          status: target.status ?? 200,
          contentType: target.contentType ?? 'text/html',
          body: target.body ?? '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
        }),
      resetConnection: (target) => arm(target, { kind: 'reset' }),
      acceptOrderThenHang: (times = 1) => faults.arm({ api: 'trading', method: 'POST', path: '/v2/orders', times }, { kind: 'accept-then-hang' }),
      clearFaults: () => faults.clear(),
      requests: (filter = {}) =>
        log.filter(
          (r) =>
            (!filter.api || r.api === filter.api) &&
            (!filter.method || r.method === filter.method.toUpperCase()) &&
            (!filter.path || (typeof filter.path === 'string' ? r.path === filter.path : filter.path.test(r.path))),
        ),
      clearRequests: () => {
        log.length = 0;
      },
      refusedUrls: () => [...refused],
    },
    clock: {
      setMarketOpen: (open) => {
        if (clock.setOpen(open)) venue.marketOpened();
      },
      setOffsetMs: (ms) => clock.setOffset(ms),
      now: () => clock.now(),
    },
    market: {
      setPrice: (symbol, price) => {
        const moved = store.setPrice(symbol, price, clock.now());
        dataStream.publishTrade(symbol, moved.trade);
        dataStream.publishQuote(symbol, moved.quote);
        venue.priceMoved(symbol);
        return moved;
      },
      setBars: (symbol, base, bars) => store.setBars(symbol, base, bars),
      publishBar: (symbol, bar, kind = 'b') => dataStream.publishBar(symbol, bar, kind),
      setDataPlan: (plan) => {
        dataPlan = plan;
      },
    },
    orders: {
      all: () => venue.allOrders(),
      fill: (id, fillOptions) => venue.fill(id, fillOptions),
      reject: (id) => venue.rejectOrder(id),
      expire: (id) => venue.expire(id),
      cancel: (id) => venue.cancel(id),
      rejectNext: (rejection) => venue.rejectNext(rejection),
      holdCancels: (hold) => venue.setHoldCancels(hold),
      setAutoFill: (autoFill) => Object.assign(venue.autoFill, autoFill),
      setCash: (cash) => venue.setCash(cash),
      tradeUpdates: () => structuredClone(published),
    },
    streams: {
      dropTrading: () => tradingStream.dropAll(),
      dropTradingBeforeNextEvent: () => tradingStream.dropBeforeNextEvent(),
      dropData: () => dataStream.dropAll(),
      connections: () => ({ trading: tradingStream.connections, data: dataStream.connections, tradingListeners: tradingStream.listeners }),
      dataSubscriptions: () => dataStream.subscriptions(),
      received: () => ({ trading: [...received.trading], data: [...received.data] }),
    },
  };

  return {
    urls,
    credentials: { keyId, secret },
    sdkOptions: { keyId, secret, paper: true, fetchApi: replayFetch },
    fetch: replayFetch,
    controls,
    close: async () => {
      await Promise.all([tradingStream.close(), dataStream.close()]);
      streamHttp.closeAllConnections();
      await Promise.all([trading.close(), data.close(), new Promise<void>((resolve) => streamHttp.close(() => resolve()))]);
    },
  };
}
