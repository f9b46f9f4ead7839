import { Decimal } from '../../domain/decimal.js';
import { quantize } from '../../domain/ledger-units.js';
import type { Booking, BookResult, LedgerStore } from '../../execution/execution-stores.js';

export class MemoryLedgerStore implements LedgerStore {
  private readonly ledgers = new Map<string, Map<string, Decimal>>();
  private readonly orders = new Map<string, string>();
  async balances(accountId: string) {
    const l = this.ledgers.get(accountId);
    return l && Object.fromEntries([...l].map(([k, v]) => [k, v.toString()]));
  }
  async seed(accountId: string, balances: Record<string, string>) {
    if (!this.ledgers.has(accountId)) this.ledgers.set(accountId, new Map(Object.entries(balances).map(([k, v]) => [k, new Decimal(quantize(v))])));
  }
  async apply(accountId: string, changes: Record<string, string>, mayGoNegative: readonly string[]) {
    return this.applyNow(accountId, changes, mayGoNegative);
  }
  /** Synchronous, so a booking checks and applies with nothing in between. */
  private applyNow(accountId: string, changes: Record<string, string>, mayGoNegative: readonly string[]) {
    const l = this.ledgers.get(accountId) ?? new Map<string, Decimal>();
    const next = new Map(l);
    for (const [token, delta] of Object.entries(changes)) {
      const value = (next.get(token) ?? new Decimal(0)).plus(quantize(delta));
      if (value.isNeg() && !mayGoNegative.includes(token)) {
        return { ok: false as const, token, available: (l.get(token) ?? new Decimal(0)).toString(), required: new Decimal(quantize(delta)).neg().toString() };
      }
      next.set(token, value);
    }
    this.ledgers.set(accountId, next);
    return { ok: true as const };
  }
  async book(accountId: string, orderId: string, b: Booking): Promise<BookResult> {
    const key = `${accountId}|${orderId}`;
    const existing = this.orders.get(key);
    if (existing !== b.replacing) return { booked: false, existing: existing ?? '' };
    const applied = this.applyNow(accountId, b.changes, b.mayGoNegative);
    if (!applied.ok) return { booked: false, short: { token: applied.token, available: applied.available, required: applied.required } };
    this.orders.set(key, b.record);
    return { booked: true };
  }
  async order(accountId: string, orderId: string) {
    return this.orders.get(`${accountId}|${orderId}`);
  }
}
