import type { Execution } from '../../execution/execution-types.js';
import { collectPage, executionMatches, type ListQuery } from '../../execution/record-listing.js';
import type { ExecutionStore } from '../../execution/execution-stores.js';
import type { SqliteDatabase } from './sqlite-database.js';

/** Executions as JSON records, with the (account, referenceId) → latest execution index beside them. */
export class SqliteExecutionStore implements ExecutionStore {
  private readonly read;
  private readonly upsert;
  private readonly readByReference;
  private readonly createTx;
  private readonly readOpen;
  private readonly readResting;
  private readonly readByClientOrderId;

  private readonly page;

  constructor(db: SqliteDatabase) {
    // Newest first from a position (created_at, id), on the account's index (migration 4).
    this.page = db.prepare<[string, number, number, string, number], { record: string }>(
      `SELECT record FROM executions WHERE account_id = ? AND (json_extract(record, '$.createdAt') < ? OR (json_extract(record, '$.createdAt') = ? AND id < ?))
       ORDER BY json_extract(record, '$.createdAt') DESC, id DESC LIMIT ?`,
    );
    this.read = db.prepare<[string], { record: string }>('SELECT record FROM executions WHERE id = ?');
    this.upsert = db.prepare<[string, string, string, string]>(
      'INSERT INTO executions (id, account_id, reference_id, record) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record',
    );
    const index = db.prepare<[string, string, string]>(
      'INSERT INTO execution_refs (account_id, reference_id, execution_id) VALUES (?, ?, ?) ON CONFLICT (account_id, reference_id) DO UPDATE SET execution_id = excluded.execution_id',
    );
    this.readByReference = db.prepare<[string, string], { record: string }>(
      'SELECT e.record FROM execution_refs r JOIN executions e ON e.id = r.execution_id WHERE r.account_id = ? AND r.reference_id = ?',
    );
    this.readOpen = db.prepare<[number], { record: string }>(
      "SELECT record FROM executions WHERE json_extract(record, '$.state') IN ('accepted', 'submitted', 'unknown') LIMIT ?",
    );
    this.readResting = db.prepare<[number], { record: string }>("SELECT record FROM executions WHERE json_extract(record, '$.order.resting') = 1 LIMIT ?");
    this.readByClientOrderId = db.prepare<[string], { record: string }>(
      "SELECT record FROM executions WHERE json_extract(record, '$.order.clientOrderId') = ?",
    );
    this.createTx = db.transaction((e: Execution) => {
      this.upsert.run(e.id, e.accountId, e.referenceId, JSON.stringify(e));
      index.run(e.accountId, e.referenceId, e.id);
    });
  }

  async create(e: Execution): Promise<void> {
    this.createTx.immediate(e);
  }

  async get(id: string): Promise<Execution | undefined> {
    const row = this.read.get(id);
    return row && (JSON.parse(row.record) as Execution);
  }

  async update(e: Execution): Promise<void> {
    this.upsert.run(e.id, e.accountId, e.referenceId, JSON.stringify(e));
  }

  async findByReference(accountId: string, referenceId: string): Promise<Execution | undefined> {
    const row = this.readByReference.get(accountId, referenceId);
    return row && (JSON.parse(row.record) as Execution);
  }

  async listOpen(limit: number): Promise<Execution[]> {
    return this.readOpen.all(limit).map((r) => JSON.parse(r.record) as Execution);
  }
  async listResting(limit: number): Promise<Execution[]> {
    return this.readResting.all(limit).map((r) => JSON.parse(r.record) as Execution);
  }
  async findByClientOrderId(clientOrderId: string): Promise<Execution | undefined> {
    const row = this.readByClientOrderId.get(clientOrderId);
    return row && (JSON.parse(row.record) as Execution);
  }
  async list(accountId: string, q: ListQuery): Promise<Execution[]> {
    return collectPage(
      async (after, size) =>
        this.page
          .all(accountId, after?.at ?? Number.MAX_SAFE_INTEGER, after?.at ?? Number.MAX_SAFE_INTEGER, after?.id ?? '\uffff', size)
          .map((r) => JSON.parse(r.record) as Execution),
      (r) => executionMatches(r, q),
      q,
    );
  }
}
