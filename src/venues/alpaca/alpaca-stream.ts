import { Alpaca, type streaming } from '@alpacahq/alpaca-trade-api';
import type { Logger } from 'pino';
import { StreamLiveness } from '../../sources/upstream-calls.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { venueBar, venueNumber, venueTime, type VenueBar, type VenueTopOfBook, type VenueTrade } from './alpaca-quotes.js';
import type { AlpacaSettings } from './alpaca-settings.js';

/** What the stream tells the source. */
export interface AlpacaStreamListener {
  trade(symbol: string, trade: VenueTrade): void;
  quote(symbol: string, quote: VenueTopOfBook): void;
  /** A minute bar (`b`, or `u`: the same minute corrected by late trades). */
  minuteBar(symbol: string, bar: VenueBar): void;
  /** The session's daily bar as it grows (`d`). */
  dailyBar(symbol: string, bar: VenueBar): void;
}

/**
 * Alpaca's stock data stream through the SDK's `stockStream` (msgpack) at the configured URL:
 * trades, quotes, minute bars (and their corrections) and daily bars of the listed symbols. The
 * SDK pings every 10 s, reconnects with backoff (here without end) and subscribes again after each
 * authentication. How long it has been closed tells the source whether the stream is dead; keys
 * the venue refuses end it (the SDK does not retry them) and it stays closed, so the venue goes down.
 */
export class AlpacaStream {
  private stream: streaming.StockDataStream | undefined;
  private readonly liveness: StreamLiveness;

  constructor(
    private readonly venue: string,
    private readonly settings: AlpacaSettings,
    private readonly listener: AlpacaStreamListener,
    observer: UpstreamObserver,
    private readonly logger: Logger,
    now: () => number = Date.now,
  ) {
    this.liveness = new StreamLiveness(venue, observer, now);
  }

  /** Connects, subscribed to `symbols`. */
  start(symbols: readonly string[]): void {
    this.stop();
    this.liveness.starting();
    const client = new Alpaca({
      keyId: this.settings.keyId,
      secret: this.settings.secret,
      paper: this.settings.network === 'paper',
      retry: false,
      rateLimit: false,
    });
    const stream = client.marketData.stockStream({ url: this.settings.streamUrl, feed: this.settings.feed, maxReconnectAttempts: -1, maxReconnectMs: 30_000 });
    this.stream = stream;
    stream.onConnect(() => this.liveness.open());
    stream.onDisconnect(() => this.liveness.closed());
    // The SDK's messages are its own (codes such as "connection limit exceeded"), never a credential.
    stream.onError((message) => this.logger.warn({ venue: this.venue, err: message }, 'venue stream error'));
    stream.onTrade((t) =>
      this.guard('trade', () =>
        this.listener.trade(t.symbol, { price: venueNumber(t.price, `${t.symbol} trade price`), time: venueTime(t.timestamp, `${t.symbol} trade`) }),
      ),
    );
    stream.onQuote((q) =>
      this.guard('quote', () =>
        this.listener.quote(q.symbol, {
          bid: venueNumber(q.bidPrice, `${q.symbol} bid`),
          bidSize: venueNumber(q.bidSize, `${q.symbol} bid size`),
          ask: venueNumber(q.askPrice, `${q.symbol} ask`),
          askSize: venueNumber(q.askSize, `${q.symbol} ask size`),
          time: venueTime(q.timestamp, `${q.symbol} quote`),
        }),
      ),
    );
    const minute = (b: streaming.StreamBar) => this.guard('bar', () => this.listener.minuteBar(b.symbol, venueBar(b, `${b.symbol} minute bar`)));
    stream.onBar(minute);
    stream.onUpdatedBar(minute);
    stream.onDailyBar((b) => this.guard('daily bar', () => this.listener.dailyBar(b.symbol, venueBar(b, `${b.symbol} daily bar`))));
    this.follow(symbols);
    stream.connect();
  }

  /** Subscribed to exactly `symbols` from now on (on the open connection: Alpaca's free plan allows one). */
  follow(symbols: readonly string[]): void {
    const stream = this.stream;
    if (!stream) return;
    const now = new Set(stream.getSubscriptions().trades);
    const added = symbols.filter((s) => !now.has(s));
    const removed = [...now].filter((s) => !symbols.includes(s));
    if (added.length > 0) {
      stream.subscribeForTrades(added);
      stream.subscribeForQuotes(added);
      stream.subscribeForBars(added);
      stream.subscribeForUpdatedBars(added);
      stream.subscribeForDailyBars(added);
    }
    if (removed.length > 0) {
      stream.unsubscribeFromTrades(removed);
      stream.unsubscribeFromQuotes(removed);
      stream.unsubscribeFromBars(removed);
      stream.unsubscribeFromUpdatedBars(removed);
      stream.unsubscribeFromDailyBars(removed);
    }
  }

  /** Milliseconds the stream has been closed (0 while open). */
  closedFor(): number {
    return this.stream ? this.liveness.closedFor() : 0;
  }

  stop(): void {
    const stream = this.stream;
    this.stream = undefined;
    stream?.removeAllListeners();
    stream?.disconnect();
  }

  /** A message the gateway cannot read is refused alone (logged), never the stream. */
  private guard(what: string, apply: () => void): void {
    try {
      apply();
    } catch (err) {
      this.logger.warn({ venue: this.venue, err: (err as Error).message }, `venue ${what} refused`);
    }
  }
}
