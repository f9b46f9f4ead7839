import type { Approval } from '../../execution/execution-types.js';
import { collectPage, approvalMatches, type ListQuery } from '../../execution/record-listing.js';
import type { ApprovalStore } from '../../execution/execution-stores.js';
import type { SqliteDatabase } from './sqlite-database.js';

type ConsumeOutcome = Awaited<ReturnType<ApprovalStore['consume']>>;

/** Approvals as JSON records; decisions and the one-time consumption are compare-and-set in one IMMEDIATE transaction. */
export class SqliteApprovalStore implements ApprovalStore {
  private readonly read;
  private readonly insert;
  private readonly replace;
  private readonly decideTx;
  private readonly consumeTx;
  private readonly releaseTx;

  private readonly page;

  constructor(db: SqliteDatabase) {
    // Newest first from a position (created_at, id), on the account's index (migration 4).
    this.page = db.prepare<[string, number, number, string, number], { record: string }>(
      `SELECT record FROM approvals WHERE account_id = ? AND (json_extract(record, '$.createdAt') < ? OR (json_extract(record, '$.createdAt') = ? AND id < ?))
       ORDER BY json_extract(record, '$.createdAt') DESC, id DESC LIMIT ?`,
    );
    this.read = db.prepare<[string], { record: string }>('SELECT record FROM approvals WHERE id = ?');
    this.insert = db.prepare<[string, string, string]>('INSERT OR REPLACE INTO approvals (id, account_id, record) VALUES (?, ?, ?)');
    this.replace = db.prepare<[string, string]>('UPDATE approvals SET record = ? WHERE id = ?');
    this.decideTx = db.transaction((id: string, to: 'approved' | 'rejected', now: number): Approval | undefined => {
      const a = this.load(id);
      if (!a || a.state !== 'pending' || a.expiresAt <= now) return undefined;
      const decided: Approval = { ...a, state: to, decidedAt: now };
      this.replace.run(JSON.stringify(decided), id);
      return decided;
    });
    this.consumeTx = db.transaction((id: string, hash: string, executionId: string, now: number): ConsumeOutcome => {
      const a = this.load(id);
      if (!a) return 'not_found';
      if (a.state === 'consumed') return 'already_consumed';
      if (a.state !== 'approved') return 'not_approved';
      if (a.expiresAt <= now) return 'expired';
      if (a.instructionHash !== hash) return 'hash_mismatch';
      this.replace.run(JSON.stringify({ ...a, state: 'consumed', consumedAt: now, executionId } satisfies Approval), id);
      return 'consumed';
    });
    this.releaseTx = db.transaction((id: string, executionId: string): boolean => {
      const a = this.load(id);
      if (a?.state !== 'consumed' || a.executionId !== executionId) return false;
      this.replace.run(JSON.stringify({ ...a, state: 'approved', consumedAt: null, executionId: null } satisfies Approval), id);
      return true;
    });
  }

  async release(id: string, executionId: string): Promise<boolean> {
    return this.releaseTx.immediate(id, executionId);
  }

  private load(id: string): Approval | undefined {
    const row = this.read.get(id);
    return row && (JSON.parse(row.record) as Approval);
  }

  async create(a: Approval): Promise<void> {
    this.insert.run(a.id, a.accountId, JSON.stringify(a));
  }

  async get(id: string): Promise<Approval | undefined> {
    return this.load(id);
  }

  async decide(id: string, to: 'approved' | 'rejected', now: number): Promise<Approval | undefined> {
    return this.decideTx.immediate(id, to, now);
  }

  async consume(id: string, hash: string, executionId: string, now: number): Promise<ConsumeOutcome> {
    return this.consumeTx.immediate(id, hash, executionId, now);
  }

  async list(accountId: string, q: ListQuery): Promise<Approval[]> {
    return collectPage(
      async (after, size) =>
        this.page
          .all(accountId, after?.at ?? Number.MAX_SAFE_INTEGER, after?.at ?? Number.MAX_SAFE_INTEGER, after?.id ?? '\uffff', size)
          .map((r) => JSON.parse(r.record) as Approval),
      (r) => approvalMatches(r, q),
      q,
    );
  }
}
