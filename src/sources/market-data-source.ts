import type { Candle } from '../domain/candle.js';
import type { MarketDefinition, MarketQuote, OrderBookSnapshot } from '../domain/market.js';
import type { SourceStatus } from '../domain/source-health.js';
import type { CandleStore } from '../market-data/candle-store.js';
import type { FundingStore } from '../market-data/funding-store.js';
import type { SpendingLedger } from './spending-ledger.js';

/** What one poll of a venue returns; `degraded` when the venue answered only in part. */
export interface SourceReading {
  quotes: MarketQuote[];
  books: Omit<OrderBookSnapshot, 'receivedAt'>[];
  degraded: boolean;
  /** Why it is degraded, in the operator's words (a 429, a slow or partial answer, a dead stream). */
  degradedReason?: string;
}

/** Where a venue's updates between polls go (ingest batches them into the cache and the events). */
export interface SourceSink {
  quote(quote: MarketQuote): void;
  book(book: Omit<OrderBookSnapshot, 'receivedAt'>): void;
  /** A candle of the venue's own, at one of the store's resolutions (open or closed). */
  candle(marketId: string, resolutionMs: number, candle: Candle): void;
}

/** What a leading replica's venue work uses: the stores its history is written to, and the fleet's spending. */
export interface HistoryStores {
  candles: CandleStore;
  funding: FundingStore;
  /** What the fleet sent each venue in the last minute (a new leader's budget starts from it). */
  spending?: SpendingLedger;
}

/** How a venue's upstream is doing, as ingest and /metrics see it. */
export interface UpstreamReport {
  /** healthy, or degraded (429s, slow or partial answers) / down (repeated failures, a dead stream), with why. */
  status: Exclude<SourceStatus, 'unknown'>;
  reason: string | null;
  /** Request weight spent in the last minute, and the budget per minute. */
  weightLastMinute: number;
  budgetPerMinute: number;
}

/** A read-only market-data adapter for one venue. Ingest is its only caller. */
export interface MarketDataSource {
  readonly id: string;
  readonly pollIntervalMs: number;
  /** Its candles are the venue's own (streamed and fetched): quotes are not sampled into candles. */
  readonly venueCandles?: boolean;
  /** Failed polls in a row before it counts as down (before that: degraded); 1 unless it says otherwise. */
  readonly failuresBeforeDown?: number;
  /** The markets listed now (a real venue's list moves with its listings and delistings, seen at each poll). */
  markets(): readonly MarketDefinition[];
  read(now: number): Promise<SourceReading>;
  /** Streams what changes often into `sink` between polls; the returned function stops it. */
  stream?(sink: SourceSink): () => void;
  /**
   * Fills the history that is not stored yet, resuming from what is: a simulator at once (or
   * deferred to the first read), a real venue in the background within its request budget.
   */
  backfillHistory?(stores: HistoryStores, now: number): Promise<void>;
  /**
   * This replica no longer ingests (its lease passed to another): background work such as the
   * history backfill stops, so one fleet spends one budget; `backfillHistory` starts it again.
   */
  standDown?(): void;
  /** Whether a market's history is still being fetched (a cold market's read says so). */
  historyPending?(marketId: string): boolean;
  /** The upstream's health and spending, for a real venue. */
  upstream?(): UpstreamReport;
  /** Stops its timers, streams and background work. */
  close?(): void;
}

export type SourceFault = 'none' | 'degraded' | 'down';
