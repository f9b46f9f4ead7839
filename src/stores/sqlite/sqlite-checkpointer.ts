import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite-database.js';

/** How often the checkpointer looks for commits to copy into the database file. */
const CHECKPOINT_EVERY_MS = 500;
/**
 * The WAL size (pages) at which the gateway's own connection checkpoints after a commit, as SQLite
 * does at 1,000 by default: only reached when the checkpointer falls behind or is gone.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;
/** Failed checkpoints in a row after which the worker is given up (the gateway connection checkpoints again). */
const MAX_FAILURES_IN_A_ROW = 3;
/** SQLite's default, restored when the checkpointer cannot run. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

/** What one PASSIVE checkpoint did: WAL frames in the log, and how many of them are now in the database file. */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

/**
 * The checkpointer's thread: its own connection to the database, which copies committed WAL frames
 * into the database file (PASSIVE: it never waits for, nor blocks, the gateway's writer) with the
 * fsyncs SQLite does around a checkpoint. CommonJS source, so the same code runs from dist/ and
 * under tsx; the driver is resolved by the main thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, log: row.log, checkpointed: row.checkpointed });
  } catch (err) {
    parentPort.postMessage({ ok: false, message: String((err && err.message) || err) });
  }
});
`;

/**
 * Checkpoints the embedded database's WAL on a worker thread instead of in the commit that crosses
 * SQLite's threshold. better-sqlite3 is synchronous: a checkpoint run by the gateway's connection
 * (SQLite's default after any commit past 1,000 WAL pages) holds the event loop for its page copy
 * and two fsyncs, adding milliseconds to every request answered in that turn. Durability is not
 * touched: commits are acknowledged after their own WAL fsync as before (synchronous=FULL), and a
 * checkpoint only copies committed frames, with the fsyncs SQLite does around it. The gateway's
 * connection still checkpoints itself past FALLBACK_AUTOCHECKPOINT_PAGES, and at SQLite's default
 * if the worker fails, so the WAL stays bounded either way.
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private readonly timer: NodeJS.Timeout;
  private readonly changes;
  private readonly waiting: ((result: CheckpointResult | Error) => void)[] = [];
  private checkpointedAt = -1;
  private failuresInARow = 0;
  private closed = false;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly reportError: (err: unknown) => void = () => undefined,
    everyMs = CHECKPOINT_EVERY_MS,
  ) {
    this.changes = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file: db.name },
    });
    this.worker.unref();
    this.worker.on('message', (message: { ok: true; log: number; checkpointed: number } | { ok: false; message: string }) => {
      const settle = this.waiting.shift();
      const result = message.ok ? { log: message.log, checkpointed: message.checkpointed } : new Error(message.message);
      settle?.(result);
      if (!(result instanceof Error)) {
        this.failuresInARow = 0;
        // Frames a reader still needed stay in the WAL: the next tick tries again, commits or not.
        if (result.checkpointed < result.log) this.checkpointedAt = -1;
      } else if (++this.failuresInARow >= MAX_FAILURES_IN_A_ROW) this.fail(result);
      else {
        this.checkpointedAt = -1;
        this.reportError(result);
      }
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', () => this.fail(new Error('the checkpointer thread exited')));
    db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    this.timer = setInterval(() => this.tick(), everyMs);
    this.timer.unref();
  }

  /** Checkpoints now (PASSIVE); resolves with what the worker copied. */
  checkpoint(): Promise<CheckpointResult> {
    if (this.closed) return Promise.reject(new Error('the checkpointer is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push((result) => (result instanceof Error ? reject(result) : resolve(result)));
      this.worker.postMessage('checkpoint');
    });
  }

  /** Stops checkpointing; the worker closes its connection. The gateway's connection closes after it as before. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const settle of this.waiting.splice(0)) settle(new Error('the checkpointer is closed'));
    this.worker.postMessage('close');
  }

  private tick(): void {
    // One checkpoint at a time, and only after commits since the last one.
    if (this.closed || this.waiting.length > 0 || !this.db.open) return;
    const changes = this.changes.get()!;
    if (changes === this.checkpointedAt) return;
    this.checkpointedAt = changes;
    this.checkpoint().catch(() => undefined);
  }

  private fail(err: unknown): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.reportError(err);
    for (const settle of this.waiting.splice(0)) settle(err instanceof Error ? err : new Error(String(err)));
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  }
}
