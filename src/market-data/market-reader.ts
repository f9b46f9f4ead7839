import { freshnessAt, MAX_AGE_MS, missingFreshness, type FreshnessBasis } from '../domain/freshness.js';
import type { MarketDefinition, MarketSnapshot, OrderBookSnapshot } from '../domain/market.js';
import type { SourceHealth, SourceStatus } from '../domain/source-health.js';
import type { Clock } from '../domain/clock.js';
import type { SnapshotCache } from './snapshot-cache.js';
import type { MarketDirectory } from './market-directory.js';
import { recordOf, type MarketFreshness, type MarketView } from './market-view.js';

/** Reads public market views from the snapshot cache, with freshness computed at read time. */
export class MarketReader {
  constructor(
    readonly directory: MarketDirectory,
    private readonly cache: SnapshotCache,
    private readonly clock: Clock,
  ) {}

  /** The snapshot cache's version: changes with every write, undefined while writes could go unnoticed (see SnapshotCache). */
  version(): number | undefined {
    return this.cache.version();
  }

  /** The latest snapshots of several markets, in the order asked (undefined where none yet). */
  snapshots(marketIds: readonly string[]): Promise<(MarketSnapshot | undefined)[]> {
    return this.cache.getMarkets(marketIds);
  }

  /** The latest order-book snapshot of a market, as ingest cached it. */
  orderBook(marketId: string): Promise<OrderBookSnapshot | undefined> {
    return this.cache.getOrderBook(marketId);
  }

  sourceHealth(sourceId: string): Promise<SourceHealth | undefined> {
    return this.cache.getSourceHealth(sourceId);
  }

  async healthBySource(): Promise<Map<string, SourceHealth>> {
    return new Map((await this.cache.listSourceHealth()).map((h) => [h.sourceId, h]));
  }

  async sourceStatus(sourceId: string): Promise<SourceStatus> {
    return (await this.sourceHealth(sourceId))?.status ?? 'unknown';
  }

  /** Views of `markets` that have a snapshot, in listing order, plus those that have none. */
  async views(markets: readonly MarketDefinition[], now = this.clock.now()): Promise<{ views: MarketView[]; missing: MarketDefinition[] }> {
    const [snapshots, health] = await Promise.all([this.cache.getMarkets(markets.map((m) => m.id)), this.healthBySource()]);
    const views: MarketView[] = [];
    const missing: MarketDefinition[] = [];
    markets.forEach((m, i) => {
      const s = snapshots[i];
      if (!s) return void missing.push(m);
      const record = recordOf(m, s);
      const status = health.get(m.sourceId)?.status ?? 'unknown';
      views.push({ ...record, freshness: freshnessAt(viewFreshnessBasis(record.asOfMs, status), now) });
    });
    return { views, missing };
  }

  async view(m: MarketDefinition, now = this.clock.now()): Promise<MarketView | undefined> {
    return (await this.views([m], now)).views[0];
  }

  /** Current freshness of several markets in one read, also of those without a snapshot yet. */
  async freshnessOf(markets: readonly MarketDefinition[], now = this.clock.now()): Promise<MarketFreshness[]> {
    const [{ views }, health] = await Promise.all([this.views(markets, now), this.healthBySource()]);
    const byId = new Map(views.map((v) => [v.id, v.freshness]));
    return markets.map((m) => ({
      marketId: m.id,
      asset: m.asset,
      freshness: byId.get(m.id) ?? missingFreshness('no_snapshot', health.get(m.sourceId)?.status ?? 'unknown', now),
    }));
  }

  /** Current freshness of one market, also when it has no snapshot yet. */
  async freshness(m: MarketDefinition, now = this.clock.now()): Promise<MarketFreshness> {
    return (await this.freshnessOf([m], now))[0]!;
  }
}

/** What a market view's freshness is computed from: its snapshot time and source status, aged against the default max age. */
export function viewFreshnessBasis(asOfMs: number, sourceStatus: SourceStatus): FreshnessBasis {
  return { asOf: asOfMs, sourceStatus, maxAgeMs: MAX_AGE_MS.default };
}
