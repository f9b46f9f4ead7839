import { AsyncLocalStorage } from 'node:async_hooks';
import type { WriteDurability } from '../../execution/write-durability.js';
import type { SqliteDatabase } from './sqlite-database.js';

interface Batch {
  /** Settles when the batch's transaction commits (or fails). */
  committed: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
  /** The connection's total_changes() when the batch began: a batch still at it changed no row. */
  startChanges: number;
  /** Known to have changed a row (else its commit writes nothing). */
  dirty: boolean;
  /** Run once the batch is durable (events that tell subscribers about its writes). */
  after: (() => void)[];
  /** Why the batch was rolled back, once it was: its writes are gone. */
  failed?: unknown;
}

/** The batches one `together` touched: it resolves when all of them committed. */
interface Unit {
  batches: Batch[];
}

/**
 * Group commit for the embedded database. Every store call runs inside one open transaction
 * (BEGIN IMMEDIATE, so the keys CLI's connection waits for it) that is committed once per turn
 * of the event loop (`setImmediate`): the store transactions inside it become savepoints, and
 * concurrent requests share one commit, so one WAL fsync (synchronous=FULL) instead of one per
 * statement. Nothing is acknowledged before its commit: a store call made outside `together`
 * resolves only after the batch holding its writes (or the uncommitted writes it could have
 * read) commits; inside `together` the calls resolve at once and the work resolves after the
 * commit. A crash loses the open batch whole, and since the WAL is one log, what survives is a
 * prefix of the commits: a state the money path could already be in between two of its steps.
 */
export class SqliteGroupCommit implements WriteDurability {
  private batch: Batch | undefined;
  private readonly units = new AsyncLocalStorage<Unit>();
  private readonly changes;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly reportError: (err: unknown) => void = () => undefined,
  ) {
    this.changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  }

  async together<T>(work: () => Promise<T>): Promise<T> {
    if (this.units.getStore()) return work();
    const unit: Unit = { batches: [] };
    return this.units.run(unit, async () => {
      let result: T;
      try {
        result = await work();
      } catch (err) {
        await this.durable(unit.batches);
        throw err;
      }
      await this.durable(unit.batches);
      return result;
    });
  }

  /** The store with every method run inside the open batch (see the class comment). */
  wrap<T extends object>(store: T): T {
    const wrappers = new WeakMap<object, unknown>();
    return new Proxy(store, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || property === 'constructor') return value;
        let wrapper = wrappers.get(value);
        if (!wrapper) {
          const method = value as (...args: unknown[]) => unknown;
          wrapper = (...args: unknown[]) => this.call(() => method.apply(target, args));
          wrappers.set(value, wrapper);
        }
        return wrapper;
      },
    });
  }

  /** Runs `publish` once what has been written so far is committed (at once when nothing is pending). */
  afterCommit(publish: () => void): void {
    if (this.batch && this.isDirty(this.batch)) this.batch.after.push(publish);
    else publish();
  }

  /** Commits the open batch now (shutdown, before the database closes). */
  flush(): void {
    this.commit();
  }

  private async call(run: () => unknown): Promise<unknown> {
    const unit = this.units.getStore();
    // A unit whose earlier writes were rolled back stops here: writing on (e.g. booking at the venue
    // after its claim and record were lost) would commit a step no record leads to.
    const lost = unit?.batches.find((b) => b.failed !== undefined);
    if (lost) throw lost.failed;
    const batch = this.open();
    if (unit && unit.batches.at(-1) !== batch) unit.batches.push(batch);
    let result: unknown;
    try {
      // The SQLite stores are synchronous behind their promises: the statements run here, in the batch.
      result = await run();
    } catch (err) {
      this.settleCall(batch);
      if (!unit) await this.durable([batch]);
      throw err;
    }
    this.settleCall(batch);
    if (!unit) await this.durable([batch]);
    return result;
  }

  private settleCall(batch: Batch): void {
    // A failure SQLite answers by rolling back the whole transaction (disk full, I/O) ends the batch.
    if (this.batch === batch && !this.db.inTransaction) this.fail(batch, new Error('the embedded database rolled back a transaction'));
  }

  private isDirty(batch: Batch): boolean {
    if (!batch.dirty && this.batch === batch) batch.dirty = this.changes.get() !== batch.startChanges;
    return batch.dirty;
  }

  /**
   * Resolves when the given batches' writes and everything uncommitted that could have been read
   * are committed; rejects when one of them was rolled back instead.
   */
  private async durable(batches: readonly Batch[]): Promise<void> {
    // Batches no longer open have settled: committed, or rolled back (a rejection).
    for (const b of batches) if (b !== this.batch) await b.committed;
    if (this.batch && this.isDirty(this.batch)) await this.batch.committed;
  }

  private open(): Batch {
    // SQLite ended the transaction under the open batch (a rollback outside a store call): it is lost.
    if (this.batch && !this.db.inTransaction) this.fail(this.batch, new Error('the embedded database rolled back a transaction'));
    if (this.batch) return this.batch;
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const committed = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    // A failed batch with no one waiting for it is not an unhandled rejection.
    committed.catch(() => undefined);
    this.db.exec('BEGIN IMMEDIATE');
    const batch: Batch = { committed, resolve, reject, startChanges: this.changes.get()!, dirty: false, after: [] };
    this.batch = batch;
    setImmediate(() => {
      if (this.batch === batch) this.commit();
    });
    return batch;
  }

  private commit(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    if (!this.db.inTransaction) {
      // Rolled back by SQLite (disk full, I/O) with nothing to commit: its writes are gone, not durable.
      this.fail(batch, new Error('the embedded database rolled back a transaction'));
      return;
    }
    try {
      this.db.exec('COMMIT');
    } catch (err) {
      this.fail(batch, err);
      return;
    }
    batch.resolve();
    for (const publish of batch.after) {
      try {
        publish();
      } catch (err) {
        // Telling subscribers failed; the commit and its answers stand.
        this.reportError(err);
      }
    }
  }

  private fail(batch: Batch, err: unknown): void {
    if (this.batch === batch) this.batch = undefined;
    batch.failed = err;
    this.rollback();
    batch.reject(err);
  }

  private rollback(): void {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    } catch {
      // Already rolled back by SQLite.
    }
  }
}
