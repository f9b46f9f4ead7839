import type { MarketDefinition, MarketSnapshot, OrderBookSnapshot } from '../domain/market.js';
import type { SourceHealth } from '../domain/source-health.js';

/**
 * The approved public snapshot cache: the only thing public reads consult.
 * Ingest writes it; every replica reads it.
 */
export interface SnapshotCache {
  putMarket(snapshot: MarketSnapshot): Promise<void>;
  getMarket(marketId: string): Promise<MarketSnapshot | undefined>;
  getMarkets(marketIds: readonly string[]): Promise<(MarketSnapshot | undefined)[]>;
  putOrderBook(book: OrderBookSnapshot): Promise<void>;
  getOrderBook(marketId: string): Promise<OrderBookSnapshot | undefined>;
  putSourceHealth(health: SourceHealth): Promise<void>;
  getSourceHealth(sourceId: string): Promise<SourceHealth | undefined>;
  listSourceHealth(): Promise<SourceHealth[]>;
  /**
   * A source's listed markets as the leader's latest poll of its venue saw them: a real venue's
   * catalogue moves, and only the leader asks it, so every other replica lists what it wrote.
   */
  putListing(sourceId: string, markets: readonly MarketDefinition[]): Promise<void>;
  getListing(sourceId: string): Promise<MarketDefinition[] | undefined>;
  /** Calls `listener` with the source whose listing another replica wrote (none in one process). */
  onListingChanged(listener: (sourceId: string) => void): void;
  /**
   * A number that changes with every write (markets, books, health, listings) this process makes or
   * learns of, read synchronously, so a response rendered from the cache can be reused until it
   * changes; undefined while writes could go unnoticed (Redis, its subscription down), when every
   * response is rendered. Read it before the data an answer is rendered from.
   */
  version(): number | undefined;
}
