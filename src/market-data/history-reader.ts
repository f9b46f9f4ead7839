import type { FundingEntry } from '../domain/market.js';
import type { CandleStore } from './candle-store.js';
import { BatchedCandleStore } from './batched-candle-store.js';
import { loadHistory, type HistoryRequest, type HistoryResult } from './candle-history.js';
import type { FundingStore } from './funding-store.js';

/** Settled funding the stores keep per market (the Redis store trims to it). */
const FUNDING_KEPT = 720;

/** Stored history, as resolvers read it: candles aggregated from stored observations, settled funding. */
export class HistoryReader {
  constructor(
    private readonly candleStore: CandleStore,
    private readonly fundingStore: FundingStore,
    /** Whether a market's history is still being fetched from its venue (a cold market's read says so). */
    readonly backfilling: (marketId: string) => boolean = () => false,
  ) {}

  /** A reader for one request whose candle reads are batched across markets (graph fields). */
  batched(): HistoryReader {
    return new HistoryReader(new BatchedCandleStore(this.candleStore), this.fundingStore, this.backfilling);
  }

  /** The candle store's version of one market's series (undefined where the store has none): read before the candles. */
  candleVersion(marketId: string): number | undefined {
    return this.candleStore.version?.(marketId);
  }

  candles(request: HistoryRequest): Promise<HistoryResult> {
    return loadHistory(this.candleStore, request);
  }

  /**
   * The most recent `limit` settled funding intervals of a perpetual, oldest first; with
   * `before`, those settled before it (among the kept ones: the store keeps the last 720).
   */
  async funding(marketId: string, limit: number, before?: number): Promise<FundingEntry[]> {
    if (before === undefined) return this.fundingStore.latest(marketId, limit);
    const kept = await this.fundingStore.latest(marketId, FUNDING_KEPT);
    return kept.filter((e) => e.time < before).slice(-limit);
  }
}
