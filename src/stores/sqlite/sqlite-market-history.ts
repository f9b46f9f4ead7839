import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Candle } from '../../domain/candle.js';
import type { FundingEntry } from '../../domain/market.js';

/** Market history's own file: candles and funding are re-fetchable, so they never share the money database's fsyncs. */
export const MARKET_HISTORY_FILE = 'market-history.db';

/** How often queued writes are committed (one transaction each). */
const FLUSH_EVERY_MS = 1_000;

/**
 * Venue candles and settled funding on disk (embedded mode), so a restart serves them at once
 * and a venue's backfill resumes from the newest stored point instead of starting over.
 * WAL with synchronous=NORMAL: a crash may lose the last second of writes, which the venue
 * still has (the backfill fetches them again); the money database keeps synchronous=FULL.
 */
export class SqliteMarketHistory {
  private readonly db: Database.Database;
  private readonly candleWrites = new Map<string, { marketId: string; resolutionMs: number; candle: Candle }>();
  private readonly fundingWrites: { marketId: string; entry: FundingEntry }[] = [];
  private readonly spendingWrites: { venue: string; at: number; weight: number }[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly statements;

  constructor(dataDir: string, onError: (err: unknown) => void) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(join(dataDir, MARKET_HISTORY_FILE), { timeout: 5_000 });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS candles (
        market_id TEXT NOT NULL, resolution_ms INTEGER NOT NULL, start INTEGER NOT NULL,
        open TEXT NOT NULL, high TEXT NOT NULL, low TEXT NOT NULL, close TEXT NOT NULL, volume TEXT NOT NULL,
        PRIMARY KEY (market_id, resolution_ms, start)) STRICT, WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS funding (market_id TEXT NOT NULL, time INTEGER NOT NULL, rate TEXT NOT NULL, PRIMARY KEY (market_id, time)) STRICT, WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS spending (venue TEXT NOT NULL, at INTEGER NOT NULL, weight INTEGER NOT NULL) STRICT;
      CREATE INDEX IF NOT EXISTS spending_by_time ON spending (venue, at);`);
    this.statements = {
      upsertCandle: this.db.prepare(
        'INSERT INTO candles VALUES (@marketId, @resolutionMs, @start, @open, @high, @low, @close, @volume) ON CONFLICT DO UPDATE SET open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume',
      ),
      series: this.db.prepare('SELECT DISTINCT market_id AS marketId, resolution_ms AS resolutionMs FROM candles'),
      candles: this.db.prepare('SELECT start, open, high, low, close, volume FROM candles WHERE market_id = ? AND resolution_ms = ? ORDER BY start'),
      prune: this.db.prepare('DELETE FROM candles WHERE resolution_ms = ? AND start < ?'),
      insertFunding: this.db.prepare('INSERT OR IGNORE INTO funding VALUES (?, ?, ?)'),
      funding: this.db.prepare('SELECT market_id AS marketId, time, rate FROM funding ORDER BY market_id, time'),
      insertSpending: this.db.prepare('INSERT INTO spending VALUES (?, ?, ?)'),
      spending: this.db.prepare('SELECT at, weight FROM spending WHERE venue = ? AND at >= ? ORDER BY at'),
      forgetSpending: this.db.prepare('DELETE FROM spending WHERE at < ?'),
    };
    this.timer = setInterval(() => {
      try {
        this.flush();
      } catch (err) {
        onError(err);
      }
    }, FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** The stored series (each loaded on demand). */
  series(): { marketId: string; resolutionMs: number }[] {
    return this.statements.series.all() as { marketId: string; resolutionMs: number }[];
  }

  /**
   * One series' candles, oldest first, with what is still queued for it. After close, none: a
   * deferred series produced while the gateway stops (the memory store drains them in the
   * background) must not throw from a closed file.
   */
  candles(marketId: string, resolutionMs: number): Candle[] {
    if (!this.db.open) return [];
    this.flush();
    return this.statements.candles.all(marketId, resolutionMs) as Candle[];
  }

  /** Every stored funding entry, by market, oldest first. */
  funding(): { marketId: string; time: number; rate: string }[] {
    this.flush();
    return this.statements.funding.all() as { marketId: string; time: number; rate: string }[];
  }

  /** Queues candles for the next commit (the latest per bucket wins). */
  writeCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): void {
    for (const candle of candles) this.candleWrites.set(`${marketId}|${resolutionMs}|${candle.start}`, { marketId, resolutionMs, candle });
  }

  writeFunding(marketId: string, entry: FundingEntry): void {
    this.fundingWrites.push({ marketId, entry });
  }

  /** Queues a request's weight sent to a venue (a restart within the minute counts it: SpendingLedger). */
  writeSpending(venue: string, at: number, weight: number): void {
    this.spendingWrites.push({ venue, at, weight });
  }

  /** What was sent to `venue` since `since`, oldest first (nothing once closed). */
  spending(venue: string, since: number): { at: number; weight: number }[] {
    if (!this.db.open) return [];
    this.flush();
    return this.statements.spending.all(venue, since) as { at: number; weight: number }[];
  }

  prune(resolutionMs: number, before: number): void {
    if (!this.db.open) return;
    this.flush();
    this.statements.prune.run(resolutionMs, before);
  }

  /** Commits what is queued, in one transaction (after close, what is queued is the venue's to give again). */
  flush(): void {
    if (!this.db.open || (this.candleWrites.size === 0 && this.fundingWrites.length === 0 && this.spendingWrites.length === 0)) return;
    const candles = [...this.candleWrites.values()];
    const funding = this.fundingWrites.splice(0);
    const spending = this.spendingWrites.splice(0);
    this.candleWrites.clear();
    this.db.transaction(() => {
      for (const { marketId, resolutionMs, candle } of candles) this.statements.upsertCandle.run({ marketId, resolutionMs, ...candle });
      for (const { marketId, entry } of funding) this.statements.insertFunding.run(marketId, entry.time, entry.rate);
      for (const { venue, at, weight } of spending) this.statements.insertSpending.run(venue, at, weight);
      // Only the last minute's spending is ever asked for.
      if (spending.length > 0) this.statements.forgetSpending.run(spending.at(-1)!.at - 60_000);
    })();
  }

  close(): void {
    clearInterval(this.timer);
    if (!this.db.open) return;
    this.flush();
    this.db.close();
  }
}
