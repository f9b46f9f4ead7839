import type { Candle, CandleTier, PriceObservation } from '../../domain/candle.js';
import type { FundingEntry } from '../../domain/market.js';
import type { CandleStore } from '../../market-data/candle-store.js';
import type { FundingStore } from '../../market-data/funding-store.js';
import { MemoryCandleStore } from '../memory/memory-candle-store.js';
import { MemoryFundingStore } from '../memory/memory-funding-store.js';
import type { Spending, SpendingLedger } from '../../sources/spending-ledger.js';
import type { SqliteMarketHistory } from './sqlite-market-history.js';

/**
 * Candles in memory (as in the memory store: typed columns, deferred series), with every venue
 * candle (upsertCandles) also written to disk; at open each stored series is deferred to its
 * first read, so a restart costs nothing until a series is asked for. A simulator's candles
 * (record, putCandles, deferCandles) are made again at each start and not written.
 */
export class DurableCandleStore implements CandleStore {
  readonly tiers: readonly CandleTier[];
  private readonly memory: MemoryCandleStore;

  constructor(
    private readonly disk: SqliteMarketHistory,
    tiers?: readonly CandleTier[],
  ) {
    this.memory = new MemoryCandleStore(tiers);
    this.tiers = this.memory.tiers;
    for (const { marketId, resolutionMs } of disk.series()) void this.memory.deferCandles(marketId, resolutionMs, () => disk.candles(marketId, resolutionMs));
  }

  record(marketId: string, observation: PriceObservation): Promise<void> {
    return this.memory.record(marketId, observation);
  }

  putCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    return this.memory.putCandles(marketId, resolutionMs, candles);
  }

  deferCandles(marketId: string, resolutionMs: number, produce: () => readonly Candle[]): Promise<void> {
    return this.memory.deferCandles(marketId, resolutionMs, produce);
  }

  async upsertCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    await this.memory.upsertCandles(marketId, resolutionMs, candles);
    this.disk.writeCandles(marketId, resolutionMs, candles);
  }

  range(marketId: string, resolutionMs: number, from: number, to: number): Promise<Candle[]> {
    return this.memory.range(marketId, resolutionMs, from, to);
  }

  earliest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    return this.memory.earliest(marketId, resolutionMs);
  }

  latest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    return this.memory.latest(marketId, resolutionMs);
  }

  async prune(now: number): Promise<void> {
    await this.memory.prune(now);
    for (const tier of this.tiers) this.disk.prune(tier.resolutionMs, now - tier.retentionMs);
  }

  version(marketId: string): number {
    return this.memory.version(marketId);
  }
}

/**
 * Settled funding in memory; a real venue's entries also written to disk and read back at open
 * (a simulator makes its past again at each start, which a stored past would leave a gap in).
 */
export class DurableFundingStore implements FundingStore {
  private readonly memory: MemoryFundingStore;

  constructor(
    private readonly disk: SqliteMarketHistory,
    /** Whether a market's history is kept on disk: a real venue's. */
    private readonly kept: (marketId: string) => boolean,
    /** Entries kept per market (the memory store's default: FUNDING_RETENTION). */
    retention?: number,
  ) {
    this.memory = new MemoryFundingStore(retention);
    for (const { marketId, time, rate } of disk.funding()) void this.memory.append(marketId, { time, rate });
  }

  async append(marketId: string, entry: FundingEntry): Promise<void> {
    const before = (await this.memory.latest(marketId, 1))[0];
    await this.memory.append(marketId, entry);
    if ((!before || entry.time > before.time) && this.kept(marketId)) this.disk.writeFunding(marketId, entry);
  }

  latest(marketId: string, limit: number): Promise<FundingEntry[]> {
    return this.memory.latest(marketId, limit);
  }
}

/**
 * What each venue was sent, in market-history.db: a gateway restarted within the minute starts
 * its request budget from what the process before it spent (embedded mode's one process).
 */
export class DurableSpendingLedger implements SpendingLedger {
  constructor(
    private readonly disk: SqliteMarketHistory,
    private readonly now: () => number = Date.now,
  ) {}

  async spend(venue: string, spending: Spending): Promise<void> {
    this.disk.writeSpending(venue, spending.at, spending.weight);
  }

  async recent(venue: string, since: number): Promise<Spending[]> {
    // A minute is all a budget looks back on.
    return this.disk.spending(venue, Math.max(since, this.now() - 60_000));
  }
}
