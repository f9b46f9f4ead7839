import type { FundingEntry } from '../domain/market.js';
import type { CandleStore } from './candle-store.js';
import { loadHistory, type HistoryRequest, type HistoryResult } from './candle-history.js';
import type { FundingStore } from './funding-store.js';

/** Stored history, as resolvers read it: candles aggregated from stored observations, settled funding. */
export class HistoryReader {
  constructor(
    private readonly candleStore: CandleStore,
    private readonly fundingStore: FundingStore,
  ) {}

  candles(request: HistoryRequest): Promise<HistoryResult> {
    return loadHistory(this.candleStore, request);
  }

  /** The most recent `limit` settled funding intervals of a perpetual, oldest first. */
  funding(marketId: string, limit: number): Promise<FundingEntry[]> {
    return this.fundingStore.latest(marketId, limit);
  }
}
