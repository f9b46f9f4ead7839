import type { Account } from '../auth/identity.js';
import type { Booking, BookResult, LedgerStore } from './execution-stores.js';

/**
 * The paper ledger as the execution plane and the portfolio read it: an account's ledger starts
 * from its configured balances (seeded once), then moves only by fills.
 */
export class Ledger {
  constructor(private readonly store: LedgerStore) {}

  async balancesOf(account: Pick<Account, 'id' | 'balances'>): Promise<Record<string, string>> {
    await this.store.seed(account.id, account.balances);
    return (await this.store.balances(account.id)) ?? { ...account.balances };
  }

  apply(accountId: string, changes: Record<string, string>, mayGoNegative: readonly string[]): ReturnType<LedgerStore['apply']> {
    return this.store.apply(accountId, changes, mayGoNegative);
  }

  book(accountId: string, orderId: string, booking: Booking): Promise<BookResult> {
    return this.store.book(accountId, orderId, booking);
  }

  order(accountId: string, orderId: string): Promise<string | undefined> {
    return this.store.order(accountId, orderId);
  }
}
