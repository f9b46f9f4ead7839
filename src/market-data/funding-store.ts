import type { FundingEntry } from '../domain/market.js';

/** Settled funding intervals per perpetual market, oldest first. */
export interface FundingStore {
  /** Appends an entry later than the last one; an entry at or before it is ignored. */
  append(marketId: string, entry: FundingEntry): Promise<void>;
  /** The most recent `limit` entries, oldest first. */
  latest(marketId: string, limit: number): Promise<FundingEntry[]>;
}

/** How many settled intervals are kept per market (30 days of hourly funding). */
export const FUNDING_RETENTION = 720;
