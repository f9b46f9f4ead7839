import { Alpaca, streaming } from '@alpacahq/alpaca-trade-api';
import type { Logger } from 'pino';
import type { RoutedOrderState } from '../../execution/venues/routed-venue.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { alpacaOrderState } from './alpaca-orders.js';
import type { AlpacaSettings } from './alpaca-settings.js';

export interface AlpacaOrderStreamDeps {
  venue: string;
  logger: Logger;
  observer: UpstreamObserver;
  /** After a reconnect: the orders that may have moved while the stream was down, looked up (their updates are told as the stream's). */
  catchUp(): Promise<RoutedOrderState[]>;
}

/**
 * Alpaca's `trade_updates` stream through the SDK's trading stream at the trading host's
 * `/stream` (JSON): one update per order event, as the gateway's record of the order. The SDK
 * pings, reconnects with backoff (here without end) and listens again after each authentication;
 * it is alive while authenticated and listening. Events of the gap are not replayed by Alpaca:
 * after each reconnect the orders known to rest are looked up instead. Keys Alpaca refuses end it
 * (the SDK does not retry them): resting orders are then looked up by the order follower.
 */
export class AlpacaOrderStream {
  private stream: streaming.TradingStream | undefined;
  private listening = false;
  private listenedBefore = false;
  private readonly listeners = new Set<(state: RoutedOrderState) => void>();

  constructor(
    private readonly settings: AlpacaSettings,
    private readonly deps: AlpacaOrderStreamDeps,
  ) {}

  /** Tells `onUpdate` every order update from now on (the stream opens with the first follower and closes with the last); the returned function stops. */
  follow(onUpdate: (state: RoutedOrderState) => void): () => void {
    this.listeners.add(onUpdate);
    if (!this.stream) this.start();
    return () => {
      this.listeners.delete(onUpdate);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Authenticated and listening to `trade_updates` now. */
  alive(): boolean {
    return this.listening;
  }

  private tell(state: RoutedOrderState): void {
    for (const listener of this.listeners) listener(state);
  }

  private start(): void {
    const { venue, logger } = this.deps;
    const client = new Alpaca({ keyId: this.settings.keyId, secret: this.settings.secret, paper: true, retry: false, rateLimit: false });
    const stream = client.trading.stream({ url: this.settings.tradingStreamUrl, maxReconnectAttempts: -1, maxReconnectMs: 30_000 });
    this.stream = stream;
    stream.onTradeUpdate((u) => {
      try {
        this.tell(alpacaOrderState(u.order, u.timestamp));
      } catch (err) {
        logger.warn({ venue, err: (err as Error).message }, 'Alpaca order update refused');
      }
    });
    stream.on(streaming.EVENT.SUBSCRIPTION, (streams: unknown) => {
      if (!Array.isArray(streams) || !streams.includes('trade_updates')) return;
      this.listening = true;
      if (!this.listenedBefore) {
        this.listenedBefore = true;
        return;
      }
      this.deps.observer.reconnect(venue);
      void this.catchUp();
    });
    stream.onStateChange((state) => {
      if (state !== streaming.STATE.AUTHENTICATED) this.listening = false;
    });
    // The SDK's messages are its own ("auth failed", a socket error), never a credential.
    stream.onError((message) => logger.warn({ venue, err: message }, 'Alpaca trading stream error; resting orders are looked up while it is down'));
    stream.subscribeTradeUpdates();
    stream.connect();
  }

  private async catchUp(): Promise<void> {
    try {
      for (const state of await this.deps.catchUp()) this.tell(state);
    } catch (err) {
      this.deps.logger.warn(
        { venue: this.deps.venue, err: (err as Error).message },
        'orders not looked up after the Alpaca stream reconnected; the order follower does',
      );
    }
  }

  private stop(): void {
    const stream = this.stream;
    this.stream = undefined;
    this.listening = false;
    this.listenedBefore = false;
    stream?.removeAllListeners();
    stream?.disconnect();
  }
}
