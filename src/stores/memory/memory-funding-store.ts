import type { FundingEntry } from '../../domain/market.js';
import { FUNDING_RETENTION, type FundingStore } from '../../market-data/funding-store.js';

export class MemoryFundingStore implements FundingStore {
  private readonly series = new Map<string, FundingEntry[]>();

  constructor(private readonly retention = FUNDING_RETENTION) {}

  async append(marketId: string, entry: FundingEntry): Promise<void> {
    let list = this.series.get(marketId);
    if (!list) this.series.set(marketId, (list = []));
    if (list.length > 0 && list[list.length - 1]!.time >= entry.time) return;
    list.push({ ...entry });
    if (list.length > this.retention) list.splice(0, list.length - this.retention);
  }

  async latest(marketId: string, limit: number): Promise<FundingEntry[]> {
    const list = this.series.get(marketId) ?? [];
    return list.slice(Math.max(0, list.length - limit));
  }
}
