import { appendLiveCandles, foldObservation } from '../../domain/candle-fold.js';
import { DEFAULT_CANDLE_TIERS, type Candle, type CandleTier, type PriceObservation } from '../../domain/candle.js';
import type { CandleStore } from '../../market-data/candle-store.js';
import { CandleColumns } from './candle-columns.js';

/** A backfill not produced yet, and the retention cut-off of the prunes since it was deferred. */
interface Deferred {
  produce: () => readonly Candle[];
  prunedBefore: number;
}

/**
 * Candles per market and tier in typed-array columns (`candle-columns.ts`); appends and range
 * reads are O(log n). A deferred backfill is produced on the first read of its series, or by a
 * background drain one series per event-loop turn, whichever comes first; observations recorded
 * meanwhile are kept as live candles and appended to it then (`appendLiveCandles`), so a read
 * sees exactly what an eager backfill followed by the same observations would have stored.
 */
export class MemoryCandleStore implements CandleStore {
  /** Per tier, per market. */
  private readonly series = new Map<number, Map<string, CandleColumns>>();
  private readonly deferred = new Map<number, Map<string, Deferred>>();
  private draining = false;
  /** Writes per market that can change its reads (see version). */
  private readonly writes = new Map<string, number>();

  constructor(readonly tiers: readonly CandleTier[] = DEFAULT_CANDLE_TIERS) {
    for (const t of [...tiers].sort((a, b) => b.resolutionMs - a.resolutionMs)) {
      this.series.set(t.resolutionMs, new Map());
      this.deferred.set(t.resolutionMs, new Map()); // coarsest first: the drain serves daily candles (market graph) first
    }
  }

  private columns(marketId: string, resolutionMs: number): CandleColumns {
    let byMarket = this.series.get(resolutionMs);
    if (!byMarket) this.series.set(resolutionMs, (byMarket = new Map()));
    let columns = byMarket.get(marketId);
    if (!columns) byMarket.set(marketId, (columns = new CandleColumns()));
    return columns;
  }

  /** The series with any deferred backfill produced. */
  private settled(marketId: string, resolutionMs: number): CandleColumns {
    const columns = this.columns(marketId, resolutionMs);
    const pending = this.deferred.get(resolutionMs)?.get(marketId);
    if (pending) {
      this.deferred.get(resolutionMs)!.delete(marketId);
      columns.replaceAll(appendLiveCandles(pending.produce(), columns.slice(0, columns.length)));
      columns.dropOldest(columns.lowerBound(pending.prunedBefore));
    }
    return columns;
  }

  version(marketId: string): number {
    return this.writes.get(marketId) ?? 0;
  }

  private wrote(marketId: string): void {
    this.writes.set(marketId, (this.writes.get(marketId) ?? 0) + 1);
  }

  async record(marketId: string, o: PriceObservation): Promise<void> {
    this.wrote(marketId);
    for (const tier of this.tiers) {
      const columns = this.columns(marketId, tier.resolutionMs);
      const bucket = Math.floor(o.time / tier.resolutionMs) * tier.resolutionMs;
      const last = columns.last();
      if (last && last.start > bucket) continue; // late observation for a closed bucket: ignore
      const folded = foldObservation(last, bucket, o);
      if (last && last.start === bucket) columns.replaceLast(folded);
      else columns.push(folded);
    }
  }

  async putCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    this.wrote(marketId);
    this.deferred.get(resolutionMs)?.delete(marketId);
    this.columns(marketId, resolutionMs).replaceAll(candles);
  }

  async upsertCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    if (candles.length === 0) return;
    this.wrote(marketId);
    this.settled(marketId, resolutionMs).upsert(candles);
  }

  /** `putCandles` with candles produced later: on the first read of the series or in the background. */
  async deferCandles(marketId: string, resolutionMs: number, produce: () => readonly Candle[]): Promise<void> {
    this.wrote(marketId);
    this.columns(marketId, resolutionMs).replaceAll([]);
    let byMarket = this.deferred.get(resolutionMs);
    if (!byMarket) this.deferred.set(resolutionMs, (byMarket = new Map()));
    byMarket.set(marketId, { produce, prunedBefore: -Infinity });
    this.drainSoon();
  }

  async range(marketId: string, resolutionMs: number, from: number, to: number): Promise<Candle[]> {
    const columns = this.settled(marketId, resolutionMs);
    return columns.slice(columns.lowerBound(from), columns.lowerBound(to + 1));
  }

  async earliest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    const columns = this.settled(marketId, resolutionMs);
    return columns.length === 0 ? undefined : columns.startAt(0);
  }

  async latest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    const columns = this.settled(marketId, resolutionMs);
    return columns.length === 0 ? undefined : columns.startAt(columns.length - 1);
  }

  async prune(now: number): Promise<void> {
    for (const tier of this.tiers) {
      const cut = now - tier.retentionMs;
      const pending = this.deferred.get(tier.resolutionMs);
      for (const [marketId, columns] of this.series.get(tier.resolutionMs) ?? []) {
        const deferred = pending?.get(marketId);
        if (deferred) {
          if (cut > deferred.prunedBefore) this.wrote(marketId);
          deferred.prunedBefore = Math.max(deferred.prunedBefore, cut);
          continue;
        }
        const dropped = columns.lowerBound(cut);
        if (dropped === 0) continue;
        this.wrote(marketId);
        columns.dropOldest(dropped);
      }
    }
  }

  /** Produces deferred backfills one series per event-loop turn, never holding the loop for more than one. */
  private drainSoon(): void {
    if (this.draining) return;
    this.draining = true;
    const step = () => {
      for (const [resolutionMs, byMarket] of this.deferred) {
        const next = byMarket.keys().next();
        if (next.done) continue;
        this.settled(next.value, resolutionMs);
        setImmediate(step).unref();
        return;
      }
      this.draining = false;
    };
    setImmediate(step).unref();
  }
}
