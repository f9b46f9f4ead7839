import type { Booking, BookResult, LedgerStore } from '../../execution/execution-stores.js';
import { fromUnits, toUnits } from '../../domain/ledger-units.js';
import type { SqliteDatabase } from './sqlite-database.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

type ApplyResult = Awaited<ReturnType<LedgerStore['apply']>>;

/**
 * Paper balances as exact int64 units of 1e-8 (src/stores/ledger-units.ts), read and written as
 * BigInt. A change applies in one IMMEDIATE transaction or not at all.
 */
export class SqliteLedgerStore implements LedgerStore {
  private readonly exists;
  private readonly readAll;
  private readonly seedTx;
  private readonly applyTx;
  private readonly bookTx;
  private readonly readOrder;

  constructor(db: SqliteDatabase) {
    this.exists = db.prepare<[string], { account_id: string }>('SELECT account_id FROM ledgers WHERE account_id = ?');
    this.readAll = db
      .prepare<[string], { token: string; units: bigint }>('SELECT token, units FROM ledger_balances WHERE account_id = ? ORDER BY rowid')
      .safeIntegers(true);
    const create = db.prepare<[string]>('INSERT OR IGNORE INTO ledgers (account_id) VALUES (?)');
    const readOne = db.prepare<[string, string], { units: bigint }>('SELECT units FROM ledger_balances WHERE account_id = ? AND token = ?').safeIntegers(true);
    const write = db.prepare<[string, string, bigint]>(
      'INSERT INTO ledger_balances (account_id, token, units) VALUES (?, ?, ?) ON CONFLICT (account_id, token) DO UPDATE SET units = excluded.units',
    );
    this.seedTx = db.transaction((accountId: string, balances: Record<string, string>) => {
      if (create.run(accountId).changes === 0) return; // seeded (or written) before: later seeds do nothing
      for (const [token, amount] of Object.entries(balances)) write.run(accountId, token, toUnits(amount));
    });
    this.applyTx = db.transaction((accountId: string, changes: Record<string, string>, mayGoNegative: readonly string[]): ApplyResult => {
      const next: [string, bigint][] = [];
      for (const [token, delta] of Object.entries(changes)) {
        const units = toUnits(delta);
        // Zero changes are left out, as the Redis script does.
        if (units === 0n) continue;
        const before = readOne.get(accountId, token)?.units ?? 0n;
        const after = before + units;
        if (after < 0n && !mayGoNegative.includes(token)) return { ok: false, token, available: fromUnits(before), required: fromUnits(-units) };
        if (after < INT64_MIN || after > INT64_MAX) throw new Error(`ledger of ${accountId}: ${token} would leave the int64 range`);
        next.push([token, after]);
      }
      create.run(accountId);
      for (const [token, units] of next) write.run(accountId, token, units);
      return { ok: true };
    });
    this.readOrder = db.prepare<[string, string], { record: string }>('SELECT record FROM venue_orders WHERE account_id = ? AND order_id = ?');
    const writeOrder = db.prepare<[string, string, string]>(
      'INSERT INTO venue_orders (account_id, order_id, record) VALUES (?, ?, ?) ON CONFLICT (account_id, order_id) DO UPDATE SET record = excluded.record',
    );
    this.bookTx = db.transaction((accountId: string, orderId: string, b: Booking): BookResult => {
      const existing = this.readOrder.get(accountId, orderId)?.record;
      if (existing !== b.replacing) return { booked: false, existing: existing ?? '' };
      const applied = this.applyTx(accountId, b.changes, b.mayGoNegative);
      if (!applied.ok) return { booked: false, short: { token: applied.token, available: applied.available, required: applied.required } };
      writeOrder.run(accountId, orderId, b.record);
      return { booked: true };
    });
  }

  async book(accountId: string, orderId: string, booking: Booking): Promise<BookResult> {
    return this.bookTx.immediate(accountId, orderId, booking);
  }

  async order(accountId: string, orderId: string): Promise<string | undefined> {
    return this.readOrder.get(accountId, orderId)?.record;
  }

  async balances(accountId: string): Promise<Record<string, string> | undefined> {
    if (!this.exists.get(accountId)) return undefined;
    return Object.fromEntries(this.readAll.all(accountId).map((r) => [r.token, fromUnits(r.units)]));
  }

  async seed(accountId: string, balances: Record<string, string>): Promise<void> {
    this.seedTx.immediate(accountId, balances);
  }

  async apply(accountId: string, changes: Record<string, string>, mayGoNegative: readonly string[]): Promise<ApplyResult> {
    return this.applyTx.immediate(accountId, changes, mayGoNegative);
  }
}
