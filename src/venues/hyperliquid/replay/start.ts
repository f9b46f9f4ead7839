import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createControls, type HyperliquidReplayControls } from './controls.js';
import { answerUserInfo, openOrder } from './exchange-info.js';
import { FakeExchange, type FakeTradingOptions } from './exchange.js';
import { FaultQueue } from './faults.js';
import { createHttpHandler, type ExchangeHandler, type HttpState } from './http.js';
import { defaultRecordingsDir, loadRecordedData } from './recorded.js';
import { ReplayStreams } from './streams.js';
import { TrafficLog } from './traffic.js';
import { ReplayVenue } from './venue.js';

export interface HyperliquidReplayOptions {
  /** Directory of recordings (default: test/fixtures/hyperliquid of this checkout). */
  recordingsDir?: string;
  /** Perps in the universe: the 28 recorded plus synthesized ones (default 200). */
  perpCount?: number;
  /** The venue's clock: frozen at `now` and/or shifted by `offsetMs` (default: the machine's clock). */
  clock?: { now?: number; offsetMs?: number };
  /** Close WebSocket connections silent this long (default 60 000, as the venue; null: never). */
  idleTimeoutMs?: number | null;
  /** Send the current state right after a subscription's ack (default true). */
  snapshotOnSubscribe?: boolean;
  /** List the recorded spot mids (`@107`, `PURR/USDC`, ...) in allMids, as the venue does (default true). */
  includeSpotMids?: boolean;
  /** Answers POST /exchange with a handler of the test's own (default: 403, a venue of market data only; `trading` runs the fake exchange instead). */
  exchange?: ExchangeHandler;
  /**
   * Runs the fake exchange (exchange.ts): signed order, cancel and cancelByCloid actions of these
   * accounts and their agents, the account info types and the orderUpdates and userFills streams.
   */
  trading?: FakeTradingOptions;
}

export interface HyperliquidReplay {
  /** Base URL for `HttpTransport({ apiUrl })`, e.g. `http://127.0.0.1:40123` (POST /info, /exchange). */
  httpUrl: string;
  /** URL for `WebSocketTransport({ url })`, e.g. `ws://127.0.0.1:40123/ws`. */
  wsUrl: string;
  controls: HyperliquidReplayControls;
  close(): Promise<void>;
}

/** Starts the Hyperliquid wire fake on 127.0.0.1 at an ephemeral port. */
export async function startHyperliquidReplay(options: HyperliquidReplayOptions = {}): Promise<HyperliquidReplay> {
  const recorded = await loadRecordedData(options.recordingsDir ?? defaultRecordingsDir());
  const venue = new ReplayVenue(recorded, options.perpCount ?? 200, options.includeSpotMids ?? true);
  if (options.clock) venue.setClock(options.clock);
  const faults = new FaultQueue();
  const traffic = new TrafficLog();
  const hung = new Set<ServerResponse>();
  const streams = new ReplayStreams(venue, {
    idleTimeoutMs: options.idleTimeoutMs === undefined ? 60_000 : options.idleTimeoutMs,
    snapshotOnSubscribe: options.snapshotOnSubscribe ?? true,
  });
  const trading = options.trading ? new FakeExchange(venue, options.trading) : undefined;
  const http: HttpState = {
    venue,
    faults,
    traffic,
    weightLimit: null,
    exchange: trading ? (body) => trading.handle(body) : options.exchange,
    userInfo: trading ? (type, body) => answerUserInfo(trading.book, venue, type, body) : undefined,
    hung,
    latencyMs: { '/info': 0, '/exchange': 0 },
  };
  if (trading) {
    streams.userInfo = http.userInfo;
    streams.userFillsSnapshot = (user) => (trading.book.account(user)?.fills ?? []).slice(-100);
    trading.book.listener = {
      orderUpdates: (user, orders) =>
        void streams.pushUser(
          'orderUpdates',
          user,
          orders.map((o) => ({ order: openOrder(o), status: o.status, statusTimestamp: o.statusTimestamp })),
        ),
      userFills: (user, fills) => void streams.pushUser('userFills', user, { user, fills }),
    };
  }

  const server = createServer(createHttpHandler(http));
  server.on('upgrade', (req, socket, head) => streams.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    httpUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    controls: createControls(venue, http, faults, traffic, streams, trading),
    close: () => {
      closed ??= (async () => {
        for (const res of hung) res.destroy();
        await streams.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closed;
    },
  };
}
