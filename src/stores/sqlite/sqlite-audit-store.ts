import { auditHash, GENESIS_HASH } from '../../execution/audit-chain.js';
import type { AuditEntry } from '../../execution/execution-types.js';
import type { AuditStore } from '../../execution/execution-stores.js';
import type { SqliteDatabase } from './sqlite-database.js';

/**
 * The per-account hash chain: reading the head, hashing the entry onto it and inserting it is one
 * IMMEDIATE transaction, and (account, seq) is the primary key, so the chain can never fork.
 */
export class SqliteAuditStore implements AuditStore {
  private readonly readLast;
  private readonly appendTx;

  constructor(db: SqliteDatabase) {
    const head = db.prepare<[string], { seq: number; hash: string }>('SELECT seq, hash FROM audit_entries WHERE account_id = ? ORDER BY seq DESC LIMIT 1');
    const insert = db.prepare<[string, number, string, string, string]>(
      'INSERT INTO audit_entries (account_id, seq, prev_hash, hash, entry) VALUES (?, ?, ?, ?, ?)',
    );
    this.readLast = db.prepare<[string, number, number], { entry: string }>(
      'SELECT entry FROM (SELECT seq, entry FROM audit_entries WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
    );
    this.appendTx = db.transaction((accountId: string, entry: Omit<AuditEntry, 'seq' | 'prevHash' | 'hash' | 'accountId'>): AuditEntry => {
      const prev = head.get(accountId);
      // Through JSON first, so the hash covers exactly what is stored and read back.
      const body = JSON.parse(JSON.stringify({ ...entry, accountId, seq: (prev?.seq ?? 0) + 1, prevHash: prev?.hash ?? GENESIS_HASH })) as Omit<
        AuditEntry,
        'hash'
      >;
      const full: AuditEntry = { ...body, hash: auditHash(body) };
      insert.run(accountId, full.seq, full.prevHash, full.hash, JSON.stringify(full));
      return full;
    });
  }

  async append(accountId: string, entry: Omit<AuditEntry, 'seq' | 'prevHash' | 'hash' | 'accountId'>): Promise<AuditEntry> {
    return this.appendTx.immediate(accountId, entry);
  }

  async list(accountId: string, limit: number, beforeSeq = Number.MAX_SAFE_INTEGER): Promise<AuditEntry[]> {
    return this.readLast.all(accountId, beforeSeq, limit > 0 ? limit : -1).map((r) => JSON.parse(r.entry) as AuditEntry);
  }
}
