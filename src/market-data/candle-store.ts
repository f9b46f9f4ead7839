/** One OHLCV candle; `start` is the bucket start in epoch ms, amounts are decimal strings. */
export interface Candle {
  start: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** A retention tier: candles of one resolution, kept for `retentionMs`. */
export interface CandleTier {
  resolutionMs: number;
  retentionMs: number;
}

/** A price observation from ingest; every tier folds it into its current bucket. */
export interface PriceObservation {
  time: number;
  price: string;
  volume: string;
}

/**
 * Candle observations in retention tiers (DESIGN: Data plane). Each tier aggregates the same
 * observations at write time, so coarse tiers outlive the fine ones without losing data.
 */
export interface CandleStore {
  readonly tiers: readonly CandleTier[];
  record(marketId: string, observation: PriceObservation): Promise<void>;
  /** Replaces stored candles of one tier with backfilled ones (sorted by start). */
  putCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void>;
  /** Candles of one tier whose start lies in [from, to], oldest first. */
  range(marketId: string, resolutionMs: number, from: number, to: number): Promise<Candle[]>;
  /** Start of the oldest stored candle of one tier, if any. */
  earliest(marketId: string, resolutionMs: number): Promise<number | undefined>;
  /** Drops candles older than each tier's retention. */
  prune(now: number): Promise<void>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Default tiers: minutes for two days, hours for ninety days, days for three years. */
export const DEFAULT_CANDLE_TIERS: readonly CandleTier[] = [
  { resolutionMs: MINUTE, retentionMs: 2 * DAY },
  { resolutionMs: HOUR, retentionMs: 90 * DAY },
  { resolutionMs: DAY, retentionMs: 3 * 366 * DAY },
];
