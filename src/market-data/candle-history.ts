import { mergeCandles } from '../domain/candle-fold.js';
import type { Candle, CandleTier } from '../domain/candle.js';
import type { CandleStore } from './candle-store.js';
import type { HISTORY_RESOLUTIONS } from './history-limits.js';

export type HistoryResolution = (typeof HISTORY_RESOLUTIONS)[number];

const MINUTE = 60_000;
export const RESOLUTION_MS: Record<HistoryResolution, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '1d': 1440 * MINUTE,
};

export interface HistoryPoint extends Candle {
  /** False while the bucket is still open: its close and volume will move. */
  closed: boolean;
}

export type HistoryResult = { points: HistoryPoint[] } | { refused: string };

export interface HistoryRequest {
  marketId: string;
  resolution: HistoryResolution;
  from: number | undefined;
  to: number;
  limit: number;
  now: number;
}

/** The coarsest stored tier whose resolution divides the requested one. */
export function sourceTierFor(tiers: readonly CandleTier[], resolutionMs: number): CandleTier | undefined {
  return [...tiers].filter((t) => resolutionMs % t.resolutionMs === 0).sort((a, b) => b.resolutionMs - a.resolutionMs)[0];
}

/**
 * Candles at `resolution` aggregated from stored observations only. A range that the needed
 * tier no longer holds is refused (spec: finer intervals are never fabricated), except on the
 * coarsest tier, where older data simply does not exist.
 */
export async function loadHistory(store: CandleStore, q: HistoryRequest): Promise<HistoryResult> {
  const res = RESOLUTION_MS[q.resolution];
  const tier = sourceTierFor(store.tiers, res);
  if (!tier) return { refused: `resolution '${q.resolution}' is finer than any stored observations` };
  const earliest = await store.earliest(q.marketId, tier.resolutionMs);
  if (earliest === undefined) return { points: [] };
  const coarsest = Math.max(...store.tiers.map((t) => t.resolutionMs));
  if (q.from !== undefined && q.from < earliest && tier.resolutionMs !== coarsest) {
    return {
      refused: `resolution '${q.resolution}' is stored only from ${new Date(earliest).toISOString()}; request a coarser resolution or a later 'from'`,
    };
  }
  const lastBucket = Math.floor(q.to / res) * res;
  const firstAllowed = Math.max(q.from === undefined ? earliest : Math.ceil(q.from / res) * res, lastBucket - (q.limit - 1) * res);
  if (firstAllowed > lastBucket) return { points: [] };
  const firstBucket = Math.floor(firstAllowed / res) * res;
  const candles = await store.range(q.marketId, tier.resolutionMs, firstBucket, lastBucket + res - 1);
  const points: HistoryPoint[] = [];
  let group: Candle[] = [];
  let groupStart = NaN;
  const flush = () => {
    // A bucket that began before the tier's retention start is incomplete: leave it out.
    if (group.length > 0 && groupStart >= earliest && groupStart >= firstAllowed) {
      points.push({ ...mergeCandles(groupStart, group), closed: groupStart + res <= q.now });
    }
    group = [];
  };
  for (const c of candles) {
    const bucket = Math.floor(c.start / res) * res;
    if (bucket !== groupStart) {
      flush();
      groupStart = bucket;
    }
    group.push(c);
  }
  flush();
  return { points: points.slice(-q.limit) };
}
