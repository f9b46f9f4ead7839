import type { MarketDefinition } from '../../domain/market.js';
import type { HistoryStores, MarketDataSource, SourceFault, SourceReading } from '../../sources/market-data-source.js';
import { backfillMissingHistory } from './simulated-history.js';
import { bookOf, quoteOf } from './simulated-quotes.js';

/**
 * A venue simulated in-process: deterministic prices, 24 h statistics, funding, lending rates and
 * order books. `setFault` makes it answer degraded or fail, so stale and 503 paths are real.
 */
export class SimulatedSource implements MarketDataSource {
  private fault: SourceFault = 'none';
  private lastReadAt: number | undefined;

  constructor(
    readonly id: string,
    private readonly listed: readonly MarketDefinition[],
    readonly pollIntervalMs: number,
  ) {}

  markets(): readonly MarketDefinition[] {
    return this.listed;
  }

  setFault(fault: SourceFault): void {
    this.fault = fault;
  }

  currentFault(): SourceFault {
    return this.fault;
  }

  async read(now: number): Promise<SourceReading> {
    if (this.fault === 'down') throw new Error(`${this.id}: venue unreachable (simulated outage)`);
    const since = this.lastReadAt ?? now - this.pollIntervalMs;
    this.lastReadAt = now;
    const quotes = this.listed.map((m) => quoteOf(m, now, since));
    // A degraded venue still quotes prices but stops publishing books.
    const books =
      this.fault === 'degraded' ? [] : this.listed.filter((m) => m.hasOrderBook).map((m) => ({ marketId: m.id, sourceTime: now, ...bookOf(m, now) }));
    return {
      quotes,
      books,
      degraded: this.fault === 'degraded',
      ...(this.fault === 'degraded' ? { degradedReason: 'venue answered in part (order books missing)' } : {}),
    };
  }

  /** The simulator's deterministic past, for the series not stored yet (deferred to their first read where the store can). */
  backfillHistory(stores: HistoryStores, now: number): Promise<void> {
    return backfillMissingHistory(stores.candles, stores.funding, this.listed, now);
  }
}
