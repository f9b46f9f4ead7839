import type { Spending, SpendingLedger } from '../../sources/spending-ledger.js';

const KEPT_MS = 60_000;

/** The spending of this process alone (embedded mode: one process talks to each venue). */
export class MemorySpendingLedger implements SpendingLedger {
  private readonly byVenue = new Map<string, Spending[]>();

  constructor(private readonly now: () => number = Date.now) {}

  async spend(venue: string, spending: Spending): Promise<void> {
    let list = this.byVenue.get(venue);
    if (!list) this.byVenue.set(venue, (list = []));
    list.push(spending);
    const cut = this.now() - KEPT_MS;
    while (list.length > 0 && list[0]!.at < cut) list.shift();
  }

  async recent(venue: string, since: number): Promise<Spending[]> {
    return (this.byVenue.get(venue) ?? []).filter((s) => s.at >= since);
  }
}
