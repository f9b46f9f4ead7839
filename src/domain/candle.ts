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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Default tiers: minutes for two days, hours for ninety days, days for three years. */
export const DEFAULT_CANDLE_TIERS: readonly CandleTier[] = [
  { resolutionMs: MINUTE, retentionMs: 2 * DAY },
  { resolutionMs: HOUR, retentionMs: 90 * DAY },
  { resolutionMs: DAY, retentionMs: 3 * 366 * DAY },
];
