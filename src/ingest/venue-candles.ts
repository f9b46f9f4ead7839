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
