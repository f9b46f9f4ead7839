import { SubscriptionClient, WebSocketTransport, type ISubscription } from '@nktkas/hyperliquid';
import type { Logger } from 'pino';
import { setMaxListeners } from 'node:events';
import WebSocket from 'ws';
import type { Candle } from '../../domain/candle.js';
import { sumDecimals } from '../../domain/decimal-strings.js';
import type { OrderBookLevel } from '../../domain/market.js';
import { StreamLiveness } from '../../sources/upstream-calls.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { venueCandle, venueDecimal, type WireCandle } from './hyperliquid-quotes.js';

/** The venue allows 1,000 subscriptions per IP: this gateway keeps well below it (one for mids, two per coin). */
export const MAX_SUBSCRIPTIONS = 900;
/** A terminated socket (its reconnects exhausted) is made again after this. */
const RESTART_MS = 5_000;

/** What the stream tells the source. */
export interface StreamListener {
  mids(mids: Readonly<Record<string, string>>): void;
  book(coin: string, time: number, bids: OrderBookLevel[], asks: OrderBookLevel[]): void;
  candle(coin: string, candle: Candle): void;
}

/**
 * Hyperliquid's WebSocket through the SDK (`ws` on Node 20): all mids, and per coin its book and
 * its minute candle. The SDK pings every 30 s, reconnects and resubscribes by itself; a socket
 * whose reconnects are exhausted is made again. Each reconnect is counted; how long the stream
 * has been closed tells the source whether it is dead.
 */
export class HyperliquidStream {
  private transport: WebSocketTransport | undefined;
  private subscriptions: ISubscription[] = [];
  private readonly liveness: StreamLiveness;
  private stopped = false;
  private restart: NodeJS.Timeout | undefined;
  private firstRefusal: string | undefined;

  constructor(
    private readonly venue: string,
    private readonly settings: { network: 'mainnet' | 'testnet'; wsUrl: string; timeoutMs: number },
    private readonly listener: StreamListener,
    observer: UpstreamObserver,
    private readonly logger: Logger,
    now: () => number = Date.now,
  ) {
    this.liveness = new StreamLiveness(venue, observer, now);
  }

  /** Opens the socket and subscribes to mids and the coins' books and minute candles. */
  start(coins: readonly string[]): void {
    this.stopped = false;
    this.liveness.starting();
    const transport = new WebSocketTransport({
      url: this.settings.wsUrl,
      isTestnet: this.settings.network === 'testnet',
      timeout: this.settings.timeoutMs,
      reconnect: { WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, maxRetries: 20, connectionTimeout: this.settings.timeoutMs },
    });
    this.transport = transport;
    transport.socket.addEventListener('open', () => this.liveness.open());
    transport.socket.addEventListener('close', () => this.liveness.closed());
    transport.socket.addEventListener('terminate', () => {
      if (this.stopped) return;
      this.logger.warn({ venue: this.venue }, 'venue stream gave up reconnecting; starting it again');
      this.restart = setTimeout(() => this.start(coins), RESTART_MS);
      this.restart.unref();
    });
    const client = new SubscriptionClient({ transport });
    const streamed = coins.slice(0, Math.floor((MAX_SUBSCRIPTIONS - 1) / 2));
    // The SDK listens on one event target per channel for every subscription of it (a book per
    // coin): hundreds by design, not Node's leak warning's ten.
    const events = (transport as unknown as { _hlEvents?: EventTarget })._hlEvents;
    if (events) setMaxListeners(streamed.length + 10, events);
    const subscribed = [
      client.allMids((event) => this.listener.mids(event.mids)),
      ...streamed.flatMap((coin) => [
        client.l2Book({ coin }, (event) => this.onBook(event.coin, event.time, event.levels)),
        client.candle({ coin, interval: '1m' }, (event) => this.onCandle(event)),
      ]),
    ];
    // Refusals are told once per start (a socket closing refuses every pending one at once), never while stopping.
    let refused = 0;
    const settled = subscribed.map((pending) =>
      pending.then(
        (s) => (this.stopped ? void s.unsubscribe().catch(() => undefined) : void this.subscriptions.push(s)),
        (err: unknown) => {
          if (refused++ === 0 && !this.stopped) this.firstRefusal = err instanceof Error ? err.message : String(err);
        },
      ),
    );
    void Promise.all(settled).then(() => {
      if (refused > 0 && !this.stopped)
        this.logger.warn({ venue: this.venue, refused, of: subscribed.length, err: this.firstRefusal }, 'venue subscriptions refused');
    });
  }

  /** Milliseconds the stream has been closed (0 while open). */
  closedFor(): number {
    return this.liveness.closedFor();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.restart);
    this.subscriptions = [];
    const transport = this.transport;
    this.transport = undefined;
    void transport?.socket.close();
  }

  private onBook(coin: string, time: number, levels: readonly (readonly { px: string; sz: string }[])[]): void {
    try {
      // At most 20 levels a side, as the venue sends them: never padded.
      this.listener.book(coin, time, cumulative(levels[0] ?? [], coin), cumulative(levels[1] ?? [], coin));
    } catch (err) {
      this.logger.warn({ venue: this.venue, coin, err: (err as Error).message }, 'venue book refused');
    }
  }

  private onCandle(event: WireCandle & { s: string }): void {
    try {
      this.listener.candle(event.s, venueCandle(event, event.s));
    } catch (err) {
      this.logger.warn({ venue: this.venue, err: (err as Error).message }, 'venue candle refused');
    }
  }
}

/** A side of the venue's book with cumulative sizes (exact, in decimal strings). */
function cumulative(levels: readonly { px: string; sz: string }[], coin: string): OrderBookLevel[] {
  const out: OrderBookLevel[] = [];
  let total = '0';
  for (const level of levels.slice(0, 100)) {
    const size = venueDecimal(level.sz, `${coin} book size`);
    total = sumDecimals([total, size]);
    out.push({ price: venueDecimal(level.px, `${coin} book price`), size, cumulativeSize: total });
  }
  return out;
}
