import DataLoader from 'dataloader';
import type { Candle, CandleTier, PriceObservation } from '../domain/candle.js';
import type { CandleRange, CandleSeries, CandleStore } from './candle-store.js';

const seriesKey = (s: CandleSeries) => `${s.marketId}|${s.resolutionMs}`;
const rangeKey = (r: CandleRange) => `${seriesKey(r)}|${r.from}|${r.to}`;

/**
 * A request-scoped view of a candle store whose reads are batched: every `earliest` and `range`
 * asked in the same tick (one per market of a graph query) goes to the store as one batch, which
 * a store that can batch (Redis: one script call) answers in one round trip. Writes pass through.
 */
export class BatchedCandleStore implements CandleStore {
  readonly tiers: readonly CandleTier[];
  private readonly ranges: DataLoader<CandleRange, Candle[], string>;
  private readonly earliests: DataLoader<CandleSeries, number | undefined, string>;

  constructor(private readonly base: CandleStore) {
    this.tiers = base.tiers;
    this.ranges = new DataLoader(
      (keys) => (base.rangeMany ? base.rangeMany(keys) : Promise.all(keys.map((k) => base.range(k.marketId, k.resolutionMs, k.from, k.to)))),
      { cacheKeyFn: rangeKey },
    );
    this.earliests = new DataLoader(
      (keys) => (base.earliestMany ? base.earliestMany(keys) : Promise.all(keys.map((k) => base.earliest(k.marketId, k.resolutionMs)))),
      { cacheKeyFn: seriesKey },
    );
  }

  record(marketId: string, observation: PriceObservation): Promise<void> {
    return this.base.record(marketId, observation);
  }

  putCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    return this.base.putCandles(marketId, resolutionMs, candles);
  }

  upsertCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    return this.base.upsertCandles(marketId, resolutionMs, candles);
  }

  latest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    return this.base.latest(marketId, resolutionMs);
  }

  range(marketId: string, resolutionMs: number, from: number, to: number): Promise<Candle[]> {
    return this.ranges.load({ marketId, resolutionMs, from, to });
  }

  earliest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    return this.earliests.load({ marketId, resolutionMs });
  }

  prune(now: number): Promise<void> {
    return this.base.prune(now);
  }
}
