import type { ClaimResult, IdempotencyStore } from '../../execution/execution-stores.js';
import type { SqliteDatabase } from './sqlite-database.js';

type Row = { fingerprint: string; value: string | null };

/** Idempotency records; a record past `expires_at` counts as absent, as an expired Redis key does. */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly read;
  private readonly write;
  private readonly remove;
  private readonly claimTx;

  constructor(
    db: SqliteDatabase,
    private readonly now: () => number = Date.now,
  ) {
    this.read = db.prepare<[string, number], Row>('SELECT fingerprint, value FROM idempotency WHERE key = ? AND expires_at > ?');
    this.write = db.prepare<[string, string, string | null, number]>(
      'INSERT INTO idempotency (key, fingerprint, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, value = excluded.value, expires_at = excluded.expires_at',
    );
    this.remove = db.prepare<[string, string]>('DELETE FROM idempotency WHERE key = ? AND fingerprint = ?');
    // IMMEDIATE takes the write lock first: of two connections claiming one key, one sees the other's record.
    this.claimTx = db.transaction((key: string, fingerprint: string, ttlMs: number): ClaimResult => {
      const now = this.now();
      const holder = this.read.get(key, now);
      if (holder) return { claimed: false, fingerprint: holder.fingerprint, value: holder.value };
      this.write.run(key, fingerprint, null, now + ttlMs);
      return { claimed: true };
    });
  }

  async claim(key: string, fingerprint: string, ttlMs: number): Promise<ClaimResult> {
    return this.claimTx.immediate(key, fingerprint, ttlMs);
  }

  async get(key: string) {
    const row = this.read.get(key, this.now());
    return row && { fingerprint: row.fingerprint, value: row.value };
  }

  async complete(key: string, fingerprint: string, value: string, ttlMs: number): Promise<void> {
    this.write.run(key, fingerprint, value, this.now() + ttlMs);
  }

  async release(key: string, fingerprint: string): Promise<void> {
    this.remove.run(key, fingerprint);
  }
}
