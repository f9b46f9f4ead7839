import type { Candle, CandleTier, PriceObservation } from '../domain/candle.js';

/**
 * Candle observations in retention tiers (DESIGN: Data plane). Each tier aggregates the same
 * observations at write time, so coarse tiers outlive the fine ones without losing data.
 */
export interface CandleStore {
  readonly tiers: readonly CandleTier[];
  record(marketId: string, observation: PriceObservation): Promise<void>;
  /** Replaces stored candles of one tier with backfilled ones (sorted by start). */
  putCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void>;
  /**
   * Writes a venue's own candles into one tier (sorted by start): each replaces the stored candle
   * with its start, or is inserted in order; the others are kept. A real venue's history and its
   * streamed candles arrive this way, and a durable store keeps them across restarts.
   */
  upsertCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void>;
  /**
   * `putCandles` with the candles produced when the series is first read (or earlier, in the
   * background), reading exactly as if they had been put now and later observations recorded
   * after them. Only a store read by this process alone can (in memory); others backfill eagerly.
   */
  deferCandles?(marketId: string, resolutionMs: number, produce: () => readonly Candle[]): Promise<void>;
  /** Candles of one tier whose start lies in [from, to], oldest first. */
  range(marketId: string, resolutionMs: number, from: number, to: number): Promise<Candle[]>;
  /** Start of the oldest stored candle of one tier, if any. */
  earliest(marketId: string, resolutionMs: number): Promise<number | undefined>;
  /** Start of the newest stored candle of one tier, if any (where a venue's backfill resumes). */
  latest(marketId: string, resolutionMs: number): Promise<number | undefined>;
  /** `range` of several series in one round trip (stores that can batch). */
  rangeMany?(requests: readonly CandleRange[]): Promise<Candle[][]>;
  /** `earliest` of several series in one round trip (stores that can batch). */
  earliestMany?(series: readonly CandleSeries[]): Promise<(number | undefined)[]>;
  /** Drops candles older than each tier's retention. */
  prune(now: number): Promise<void>;
  /**
   * A number that changes with every write that can change what reads of this market return
   * (an observation, a put, a prune), so an answer computed from them can be reused while it
   * stands. Only a store read by this process alone has one (in memory); absent elsewhere.
   */
  version?(marketId: string): number;
}

/** One market's candles of one tier. */
export interface CandleSeries {
  marketId: string;
  resolutionMs: number;
}

/** A range of one series: bucket starts in [from, to]. */
export interface CandleRange extends CandleSeries {
  from: number;
  to: number;
}
