import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

/** Held (an OS file lock) by the one gateway process that owns a data directory. */
export const LOCK_FILE = 'gateway.lock';
/** Who holds the lock, for the message another process prints; informative only. */
export const PID_FILE = 'gateway.pid';

/** Another gateway process owns the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | undefined,
  ) {
    super(
      `data directory ${dataDir} is in use by another gateway process${holderPid ? ` (pid ${holderPid})` : ''}; stop it, or set GATEWAY_DATA_DIR to another directory`,
    );
    this.name = 'DataDirLockedError';
  }
}

const unusableDataDir = (dir: string, err: unknown) =>
  new Error(`GATEWAY_DATA_DIR ${dir}: cannot use it as the data directory (${err instanceof Error ? err.message : String(err)})`, { cause: err });

/** Creates the data directory if needed; returns its absolute path. Errors name GATEWAY_DATA_DIR. */
export function ensureDataDir(dataDir: string): string {
  const dir = resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw unusableDataDir(dir, err);
  }
  return dir;
}

/**
 * One gateway process per data directory. The lock is SQLite's own exclusive lock on a separate
 * small database (an fcntl lock, so the kernel drops it when the process dies, kill -9 included:
 * no stale lock to clean up). The keys CLI does not take it: it is no gateway, and WAL lets it
 * share gateway.db.
 */
export class DataDirLock {
  private constructor(
    private readonly db: Database.Database,
    private readonly pidPath: string,
  ) {}

  static acquire(dataDir: string): DataDirLock {
    const dir = ensureDataDir(dataDir);
    let db: Database.Database;
    try {
      db = new Database(join(dir, LOCK_FILE), { timeout: 0 });
    } catch (err) {
      throw unusableDataDir(dir, err);
    }
    try {
      db.pragma('journal_mode = MEMORY');
      db.pragma('locking_mode = EXCLUSIVE');
      // Never committed: the transaction, and with it the exclusive lock, lasts as long as the connection.
      db.exec('BEGIN EXCLUSIVE');
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirLockedError(dir, readPid(join(dir, PID_FILE)));
      throw err;
    }
    const pidPath = join(dir, PID_FILE);
    writeFileSync(pidPath, `${process.pid}\n`);
    return new DataDirLock(db, pidPath);
  }

  release(): void {
    if (!this.db.open) return;
    if (readPid(this.pidPath) === process.pid) rmSync(this.pidPath, { force: true });
    this.db.close();
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
