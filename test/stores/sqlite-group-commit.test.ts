import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { groupCommitted, sqliteExecutionStores } from '../../src/stores/sqlite/open-sqlite-stores.js';
import { DATABASE_FILE, openSqliteDatabase } from '../../src/stores/sqlite/sqlite-database.js';
import { SqliteGroupCommit } from '../../src/stores/sqlite/sqlite-group-commit.js';

const closers: (() => void)[] = [];
afterAll(() => closers.splice(0).forEach((c) => c()));

/** The gateway's stores on a fresh database, a second connection that sees only what is committed, and a count of commits. */
function setup(reportError?: (err: unknown) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-group-'));
  const db = openSqliteDatabase(dir);
  const other = new Database(join(dir, DATABASE_FILE), { readonly: true });
  closers.push(() => (db.close(), other.close()));
  const commits = new SqliteGroupCommit(db, reportError);
  const stores = groupCommitted(commits, sqliteExecutionStores(db));
  const seen = { commits: 0 };
  // Counts the batches' COMMIT statements as they reach the real connection.
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => (sql === 'COMMIT' && seen.commits++, exec(sql));
  const committed = (key: string) => other.prepare('SELECT count(*) AS n FROM idempotency WHERE key = ?').get(key) as { n: number };
  /** Makes the next COMMIT fail as a full disk would: SQLite rolls the transaction back and throws. */
  const failNextCommit = () => {
    db.exec = (sql: string) => {
      if (sql !== 'COMMIT') return exec(sql);
      db.exec = (next: string) => exec(next);
      exec('ROLLBACK');
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
  };
  return { db, stores, commits, seen, failNextCommit, committed: (key: string) => committed(key).n === 1 };
}

describe('SQLite group commit', () => {
  it('a store call resolves only once its write is committed, visible to another connection', async () => {
    const { stores, committed } = setup();
    const claim = stores.idempotency.claim('k1', 'fp', 60_000);
    expect(committed('k1')).toBe(false);
    expect(await claim).toEqual({ claimed: true });
    expect(committed('k1')).toBe(true);
  });

  it('concurrent requests share one commit, and each is answered only after it', async () => {
    const { stores, commits, seen, committed } = setup();
    const before = seen.commits;
    const keys = Array.from({ length: 20 }, (_, i) => `req-${i}`);
    const answered: boolean[] = [];
    await Promise.all(
      keys.map((key) =>
        commits
          .together(async () => {
            await stores.idempotency.claim(key, 'fp', 60_000);
            await stores.idempotency.complete(key, 'fp', 'done', 60_000);
            await stores.audit.append('acct', { at: new Date(0).toISOString(), type: 'test', referenceId: key, details: {} });
            // Inside the work the writes are not committed yet: they share the batch.
            expect(committed(key)).toBe(false);
          })
          .then(() => answered.push(committed(key))),
      ),
    );
    expect(answered).toEqual(keys.map(() => true));
    // Three writes each for twenty requests, in one commit (two if a turn of the loop split them).
    expect(seen.commits - before).toBeLessThanOrEqual(2);
    expect(seen.commits - before).toBeGreaterThanOrEqual(1);
    const chain = await stores.audit.list('acct', 100);
    expect(chain.map((e) => e.seq)).toEqual(keys.map((_, i) => i + 1));
  });

  it('a store call that fails inside a batch leaves the batch going; a failing work is answered after the commit too', async () => {
    const { stores, commits, committed } = setup();
    await stores.ledger.seed('acct', { USDC: '1' });
    const failing = commits.together(async () => {
      await stores.idempotency.claim('kept', 'fp', 60_000);
      // The ledger refuses to leave the int64 range: an error inside the batch's open transaction.
      await expect(stores.ledger.apply('acct', { ETH: '1', USDC: '9'.repeat(30) }, [])).rejects.toThrow();
      throw new Error('refused after writing');
    });
    await expect(failing).rejects.toThrow('refused after writing');
    expect(committed('kept')).toBe(true);
    expect(await stores.ledger.balances('acct')).toEqual({ USDC: '1' });
  });

  it('a work whose earlier batch failed to commit writes nothing more and is refused', async () => {
    const { stores, commits, failNextCommit, committed } = setup();
    failNextCommit();
    const work = commits.together(async () => {
      await stores.idempotency.claim('lost-1', 'fp', 60_000);
      await new Promise((r) => setImmediate(r)); // its batch's COMMIT fails here
      await stores.idempotency.claim('lost-2', 'fp', 60_000); // a later step (e.g. the venue booking)
      return 'answered';
    });
    await expect(work).rejects.toThrow(/disk is full/);
    await new Promise((r) => setImmediate(r));
    expect(committed('lost-1')).toBe(false);
    expect(committed('lost-2')).toBe(false);
  });

  it('a batch SQLite rolled back outside a store call is a failure, never acknowledged', async () => {
    const { db, stores, committed } = setup();
    const claim = stores.idempotency.claim('gone', 'fp', 60_000);
    db.exec('ROLLBACK'); // as SQLite does on its own for a full disk or an I/O error
    await expect(claim).rejects.toThrow(/rolled back/);
    expect(committed('gone')).toBe(false);
    expect(await stores.idempotency.claim('after', 'fp', 60_000)).toEqual({ claimed: true });
    expect(committed('after')).toBe(true);
  });

  it('runs what tells subscribers about a write only once that write is committed', async () => {
    const { stores, commits, committed } = setup();
    const published: boolean[] = [];
    await commits.together(async () => {
      await stores.idempotency.claim('told', 'fp', 60_000);
      commits.afterCommit(() => published.push(committed('told')));
      expect(published).toEqual([]);
    });
    expect(published).toEqual([true]);
    // Nothing pending: at once.
    commits.afterCommit(() => published.push(true));
    expect(published).toEqual([true, true]);
  });

  it('a publication that throws is reported and does not keep the next ones from running', async () => {
    const reported: unknown[] = [];
    const { stores, commits } = setup((err) => reported.push(err));
    const published: string[] = [];
    await commits.together(async () => {
      await stores.idempotency.claim('k', 'fp', 60_000);
      commits.afterCommit(() => {
        throw new Error('subscriber broke');
      });
      commits.afterCommit(() => published.push('second'));
    });
    expect(published).toEqual(['second']);
    expect(reported).toEqual([new Error('subscriber broke')]);
  });
});
