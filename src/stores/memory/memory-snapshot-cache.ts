import type { MarketDefinition, MarketSnapshot, OrderBookSnapshot } from '../../domain/market.js';
import type { SourceHealth } from '../../domain/source-health.js';
import type { SnapshotCache } from '../../market-data/snapshot-cache.js';

export class MemorySnapshotCache implements SnapshotCache {
  private readonly markets = new Map<string, MarketSnapshot>();
  private readonly books = new Map<string, OrderBookSnapshot>();
  private readonly health = new Map<string, SourceHealth>();
  private readonly listings = new Map<string, MarketDefinition[]>();
  private writes = 0;

  version(): number {
    return this.writes;
  }

  async putMarket(snapshot: MarketSnapshot): Promise<void> {
    this.markets.set(snapshot.marketId, snapshot);
    this.writes++;
  }
  async getMarket(marketId: string): Promise<MarketSnapshot | undefined> {
    return this.markets.get(marketId);
  }
  async getMarkets(marketIds: readonly string[]): Promise<(MarketSnapshot | undefined)[]> {
    return marketIds.map((id) => this.markets.get(id));
  }
  async putOrderBook(book: OrderBookSnapshot): Promise<void> {
    this.books.set(book.marketId, book);
    this.writes++;
  }
  async getOrderBook(marketId: string): Promise<OrderBookSnapshot | undefined> {
    return this.books.get(marketId);
  }
  async putSourceHealth(health: SourceHealth): Promise<void> {
    this.health.set(health.sourceId, health);
    this.writes++;
  }
  async getSourceHealth(sourceId: string): Promise<SourceHealth | undefined> {
    return this.health.get(sourceId);
  }
  async listSourceHealth(): Promise<SourceHealth[]> {
    return [...this.health.values()];
  }
  async putListing(sourceId: string, markets: readonly MarketDefinition[]): Promise<void> {
    this.listings.set(sourceId, [...markets]);
  }
  async getListing(sourceId: string): Promise<MarketDefinition[] | undefined> {
    return this.listings.get(sourceId);
  }
  /** One process: nobody else writes a listing. */
  onListingChanged(): void {}
}
