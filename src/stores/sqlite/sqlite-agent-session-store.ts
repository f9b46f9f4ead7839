import { Decimal } from '../../domain/decimal.js';
import type { AgentSession } from '../../execution/execution-types.js';
import type { AgentSessionStore } from '../../execution/execution-stores.js';
import type { SqliteDatabase } from './sqlite-database.js';

const cents = (usd: string, rounding: Decimal.Rounding) => BigInt(new Decimal(usd).mul(100).toFixed(0, rounding));
const usd = (c: bigint) => new Decimal(c.toString()).div(100).toString();

/**
 * Agent sessions as JSON records, and their period spend as int64 cents per (session, period),
 * expiring with the period as the Redis counter does.
 */
export class SqliteAgentSessionStore implements AgentSessionStore {
  private readonly read;
  private readonly upsert;
  private readonly readByAccount;
  private readonly addSpendTx;
  private readonly settleSpendTx;
  private readonly readSpent;

  constructor(
    db: SqliteDatabase,
    private readonly now: () => number = Date.now,
  ) {
    this.read = db.prepare<[string], { record: string }>('SELECT record FROM agent_sessions WHERE id = ?');
    this.upsert = db.prepare<[string, string, string]>(
      'INSERT INTO agent_sessions (id, account_id, record) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, record = excluded.record',
    );
    this.readByAccount = db.prepare<[string], { record: string }>('SELECT record FROM agent_sessions WHERE account_id = ? ORDER BY rowid');
    const spent = db
      .prepare<[string, number, number], { cents: bigint }>('SELECT cents FROM agent_spend WHERE session_id = ? AND period_start = ? AND expires_at > ?')
      .safeIntegers(true);
    const setSpent = db.prepare<[string, number, bigint, number]>(
      'INSERT INTO agent_spend (session_id, period_start, cents, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (session_id, period_start) DO UPDATE SET cents = excluded.cents, expires_at = excluded.expires_at',
    );
    // The cap rounds down and the amount up, so cents never let an order slip past a cap (as in Redis).
    this.readSpent = spent;
    const readEntry = db
      .prepare<[string, number, string], { cents: bigint }>('SELECT cents FROM agent_spend_entries WHERE session_id = ? AND period_start = ? AND entry_id = ?')
      .safeIntegers(true);
    const writeEntry = db.prepare<[string, number, string, bigint]>(
      'INSERT INTO agent_spend_entries (session_id, period_start, entry_id, cents) VALUES (?, ?, ?, ?) ON CONFLICT (session_id, period_start, entry_id) DO UPDATE SET cents = excluded.cents',
    );
    const updateSpent = db.prepare<[bigint, string, number]>('UPDATE agent_spend SET cents = max(0, cents + ?) WHERE session_id = ? AND period_start = ?');
    this.addSpendTx = db.transaction((sessionId: string, periodStart: number, amount: string, cap: string, ttlMs: number, entryId?: string) => {
      const now = this.now();
      const before = spent.get(sessionId, periodStart, now)?.cents ?? 0n;
      const after = before + cents(amount, Decimal.ROUND_UP);
      if (after > cents(cap, Decimal.ROUND_DOWN)) return { ok: false, spent: usd(before) };
      setSpent.run(sessionId, periodStart, after, now + ttlMs);
      if (entryId) writeEntry.run(sessionId, periodStart, entryId, cents(amount, Decimal.ROUND_UP));
      return { ok: true, spent: usd(after) };
    });
    this.settleSpendTx = db.transaction((sessionId: string, periodStart: number, entryId: string, amount: string) => {
      const before = readEntry.get(sessionId, periodStart, entryId)?.cents;
      if (before === undefined) return;
      const next = cents(amount, Decimal.ROUND_UP);
      updateSpent.run(next - before, sessionId, periodStart);
      writeEntry.run(sessionId, periodStart, entryId, next);
    });
  }

  async put(s: AgentSession): Promise<void> {
    this.upsert.run(s.id, s.accountId, JSON.stringify(s));
  }

  async get(id: string): Promise<AgentSession | undefined> {
    const row = this.read.get(id);
    return row && (JSON.parse(row.record) as AgentSession);
  }

  async list(accountId: string): Promise<AgentSession[]> {
    return this.readByAccount.all(accountId).map((r) => JSON.parse(r.record) as AgentSession);
  }

  async addSpend(
    sessionId: string,
    periodStart: number,
    amount: string,
    cap: string,
    ttlMs: number,
    entryId?: string,
  ): Promise<{ ok: boolean; spent: string }> {
    return this.addSpendTx.immediate(sessionId, periodStart, amount, cap, ttlMs, entryId);
  }

  async spent(sessionId: string, periodStart: number): Promise<string> {
    return usd(this.readSpent.get(sessionId, periodStart, this.now())?.cents ?? 0n);
  }

  async settleSpend(sessionId: string, periodStart: number, entryId: string, amount: string): Promise<void> {
    this.settleSpendTx.immediate(sessionId, periodStart, entryId, amount);
  }
}
