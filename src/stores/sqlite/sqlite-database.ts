import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './sqlite-migrations.js';

export type { Database as SqliteDatabase } from 'better-sqlite3';

/** The embedded mode's database, inside GATEWAY_DATA_DIR. */
export const DATABASE_FILE = 'gateway.db';

/** How long a statement waits for another connection's write lock (the keys CLI) before failing. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (creating if needed) the embedded database of a data directory and migrates it.
 * WAL lets the keys CLI write while the gateway reads; synchronous=FULL makes every
 * acknowledged commit durable (fsync of the WAL), which money paths need.
 */
export function openSqliteDatabase(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DATABASE_FILE), { timeout: BUSY_TIMEOUT_MS });
  try {
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`${db.name}: cannot use write-ahead logging here (journal_mode is ${String(mode)})`);
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
