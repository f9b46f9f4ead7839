/**
 * Hyperliquid's wire shapes as the fake writes them. Field names and order follow the recorded
 * answers (test/fixtures/hyperliquid); where no recording exists, the venue's docs and the types of
 * @nktkas/hyperliquid 0.32.2 (`src/api/info/_methods/*.ts`, `src/api/subscription/_methods/*.ts`).
 */

export const CANDLE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

export function isCandleInterval(value: unknown): value is CandleInterval {
  return typeof value === 'string' && (CANDLE_INTERVALS as readonly string[]).includes(value);
}

/** One perp in `meta.universe` (recorded order: szDecimals, name, maxLeverage, marginTableId, flags). */
export interface UniverseEntry {
  szDecimals: number;
  name: string;
  maxLeverage: number;
  marginTableId: number;
  onlyIsolated?: true;
  isDelisted?: true;
  marginMode?: 'strictIsolated' | 'noCross';
}

export interface MarginTable {
  description: string;
  marginTiers: { lowerBound: string; maxLeverage: number }[];
}

export interface PerpMeta {
  universe: UniverseEntry[];
  marginTables: [number, MarginTable][];
  collateralToken: number;
}

/** A perp's context (recorded order of metaAndAssetCtxs). */
export interface PerpAssetCtx {
  funding: string;
  openInterest: string;
  prevDayPx: string;
  dayNtlVlm: string;
  premium: string | null;
  oraclePx: string;
  markPx: string;
  midPx: string | null;
  impactPxs: [string, string] | null;
  dayBaseVlm: string;
}

/** A candle; keys in the recorded (alphabetical) order. */
export interface Candle {
  T: number;
  c: string;
  h: string;
  i: CandleInterval;
  l: string;
  n: number;
  o: string;
  s: string;
  t: number;
  v: string;
}

export interface BookLevel {
  n: number;
  px: string;
  sz: string;
}

export interface L2Book {
  coin: string;
  levels: [BookLevel[], BookLevel[]];
  time: number;
}

export interface FundingItem {
  coin: string;
  fundingRate: string;
  premium: string;
  time: number;
}

export type PredictedFunding = [
  coin: string,
  venues: [venue: string, data: { fundingRate: string; nextFundingTime: number; fundingIntervalHours?: number } | null][],
];
