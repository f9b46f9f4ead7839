import type { MarketDefinition, MarketQuote, OrderBookSnapshot } from '../domain/market.js';

/** What one poll of a venue returns; `degraded` when the venue answered only in part. */
export interface SourceReading {
  quotes: MarketQuote[];
  books: Omit<OrderBookSnapshot, 'receivedAt'>[];
  degraded: boolean;
}

/** A read-only market-data adapter for one venue. Ingest is its only caller. */
export interface MarketDataSource {
  readonly id: string;
  readonly pollIntervalMs: number;
  markets(): readonly MarketDefinition[];
  read(now: number): Promise<SourceReading>;
}

export type SourceFault = 'none' | 'degraded' | 'down';
