import { foldObservation } from '../../domain/candle-fold.js';
import { DEFAULT_CANDLE_TIERS, type Candle, type CandleTier, type PriceObservation } from '../../domain/candle.js';
import type { CandleStore } from '../../market-data/candle-store.js';

/** Candles per market and tier in sorted arrays; appends and range reads are O(log n). */
export class MemoryCandleStore implements CandleStore {
  private readonly series = new Map<string, Candle[]>();

  constructor(readonly tiers: readonly CandleTier[] = DEFAULT_CANDLE_TIERS) {}

  private list(marketId: string, resolutionMs: number): Candle[] {
    const key = `${marketId}|${resolutionMs}`;
    let list = this.series.get(key);
    if (!list) this.series.set(key, (list = []));
    return list;
  }

  async record(marketId: string, o: PriceObservation): Promise<void> {
    for (const tier of this.tiers) {
      const list = this.list(marketId, tier.resolutionMs);
      const bucket = Math.floor(o.time / tier.resolutionMs) * tier.resolutionMs;
      const last = list[list.length - 1];
      if (last && last.start > bucket) continue; // late observation for a closed bucket: ignore
      const folded = foldObservation(last, bucket, o);
      if (last && last.start === bucket) list[list.length - 1] = folded;
      else list.push(folded);
    }
  }

  async putCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    const list = this.list(marketId, resolutionMs);
    list.splice(0, list.length, ...candles);
  }

  async range(marketId: string, resolutionMs: number, from: number, to: number): Promise<Candle[]> {
    const list = this.list(marketId, resolutionMs);
    return list.slice(lowerBound(list, from), lowerBound(list, to + 1));
  }

  async earliest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    return this.list(marketId, resolutionMs)[0]?.start;
  }

  async prune(now: number): Promise<void> {
    for (const tier of this.tiers) {
      for (const [key, list] of this.series) {
        if (!key.endsWith(`|${tier.resolutionMs}`)) continue;
        const cut = lowerBound(list, now - tier.retentionMs);
        if (cut > 0) list.splice(0, cut);
      }
    }
  }
}

function lowerBound(list: readonly Candle[], start: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.start < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
