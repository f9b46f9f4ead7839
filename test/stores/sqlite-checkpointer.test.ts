import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { FALLBACK_AUTOCHECKPOINT_PAGES, SqliteCheckpointer } from '../../src/stores/sqlite/sqlite-checkpointer.js';
import { DATABASE_FILE, openSqliteDatabase } from '../../src/stores/sqlite/sqlite-database.js';
import { SqliteGroupCommit } from '../../src/stores/sqlite/sqlite-group-commit.js';
import { sqliteExecutionStores, groupCommitted } from '../../src/stores/sqlite/open-sqlite-stores.js';

const closers: (() => void)[] = [];
afterAll(() => closers.splice(0).forEach((c) => c()));

function setup(everyMs?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-ckpt-'));
  const db = openSqliteDatabase(dir);
  const errors: unknown[] = [];
  const checkpointer = new SqliteCheckpointer(db, (err) => errors.push(err), everyMs);
  const commits = new SqliteGroupCommit(db);
  const stores = groupCommitted(commits, sqliteExecutionStores(db));
  closers.push(() => (checkpointer.close(), db.close()));
  /** The database file alone, as a copy without its WAL shows it: only what a checkpoint copied into it. */
  const inDatabaseFile = (key: string): boolean => {
    const copy = join(mkdtempSync(join(tmpdir(), 'gw-ckpt-copy-')), DATABASE_FILE);
    copyFileSync(join(dir, DATABASE_FILE), copy);
    const reader = new Database(copy, { readonly: true });
    try {
      // Before the first checkpoint even the migrations' tables are only in the WAL.
      if (!reader.prepare("SELECT 1 FROM sqlite_master WHERE name = 'idempotency'").get()) return false;
      return (reader.prepare('SELECT count(*) AS n FROM idempotency WHERE key = ?').get(key) as { n: number }).n === 1;
    } finally {
      reader.close();
    }
  };
  return { db, stores, checkpointer, errors, inDatabaseFile };
}

describe('SQLite WAL checkpointer (worker thread)', () => {
  it('copies committed frames into the database file from its own thread; the gateway connection no longer checkpoints at 1,000 pages', async () => {
    // No timer during the test: only the checkpoints it asks for.
    const { db, stores, checkpointer, errors, inDatabaseFile } = setup(3_600_000);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    // The migrations' frames first.
    await checkpointer.checkpoint();
    await stores.idempotency.claim('ckpt-1', 'fp', 60_000);
    // Committed (acknowledged) and in the WAL, not yet in the database file.
    expect(inDatabaseFile('ckpt-1')).toBe(false);
    const result = await checkpointer.checkpoint();
    expect(result.log).toBeGreaterThan(0);
    expect(result.checkpointed).toBe(result.log);
    expect(inDatabaseFile('ckpt-1')).toBe(true);
    expect(errors).toEqual([]);
  });

  it('checkpoints by itself shortly after commits', async () => {
    const { stores, inDatabaseFile } = setup();
    await stores.idempotency.claim('ckpt-2', 'fp', 60_000);
    const deadline = Date.now() + 5_000;
    while (!inDatabaseFile('ckpt-2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(inDatabaseFile('ckpt-2')).toBe(true);
  });

  it('a closed checkpointer refuses to checkpoint', async () => {
    const { checkpointer } = setup();
    checkpointer.close();
    await expect(checkpointer.checkpoint()).rejects.toThrow(/closed/);
  });
});
