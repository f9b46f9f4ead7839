import type { MarketSnapshot, OrderBookSnapshot } from '../domain/market.js';
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
}
