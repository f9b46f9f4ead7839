import { mergeCandles } from '../domain/candle-fold.js';
import type { Candle } from '../domain/candle.js';
import type { CandleStore } from '../market-data/candle-store.js';

/**
 * A venue's own candles of one resolution written into its tier, and the buckets of every
 * coarser tier they fall in brought up to date from that tier, where it holds the whole bucket
 * (a venue's fine history is short; older coarse buckets keep the venue's own candles). Minutes
 * without trades are absent at every level: nothing is filled in.
 */
export async function writeVenueCandles(store: CandleStore, marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
  if (candles.length === 0) return;
  await store.upsertCandles(marketId, resolutionMs, candles);
  const earliest = await store.earliest(marketId, resolutionMs);
  if (earliest === undefined) return;
  for (const tier of store.tiers) {
    if (tier.resolutionMs <= resolutionMs || tier.resolutionMs % resolutionMs !== 0) continue;
    const buckets = [...new Set(candles.map((c) => Math.floor(c.start / tier.resolutionMs) * tier.resolutionMs))].filter((b) => b >= earliest);
    const folded: Candle[] = [];
    for (const bucket of buckets) {
      const parts = await store.range(marketId, resolutionMs, bucket, bucket + tier.resolutionMs - 1);
      if (parts.length > 0) folded.push(mergeCandles(bucket, parts));
    }
    await store.upsertCandles(marketId, tier.resolutionMs, folded);
  }
}

/**
 * A market's stored tiers brought up to date from the venue, per tier it serves (`intervals`, its
 * name of each resolution): coarse first (a chart's long view), the finest last and folded into
 * the current coarser buckets; each from the newest stored candle (it may have been open, and a
 * restart resumes there) or the tier's retention. `fetch` answers the venue's own candles.
 */
export async function backfillVenueTiers<I>(
  store: CandleStore,
  marketId: string,
  now: number,
  intervals: Readonly<Record<number, I>>,
  fetch: (interval: I, from: number) => Promise<Candle[]>,
): Promise<void> {
  const tiers = [...store.tiers].sort((a, b) => b.resolutionMs - a.resolutionMs);
  const finest = tiers.at(-1)?.resolutionMs;
  for (const tier of tiers) {
    const interval = intervals[tier.resolutionMs];
    if (interval === undefined) continue;
    const newest = await store.latest(marketId, tier.resolutionMs);
    const candles = await fetch(interval, newest ?? now - tier.retentionMs);
    if (tier.resolutionMs === finest) await writeVenueCandles(store, marketId, tier.resolutionMs, candles);
    else await store.upsertCandles(marketId, tier.resolutionMs, candles);
  }
}
