import type { ExecutionDeps } from './execution-deps.js';
import type { Approval, Execution } from './execution-types.js';
import { positionOf, type ListPosition, type RecordFilter } from './record-listing.js';

export interface RecordPage<T> {
  items: T[];
  /** Where the next page starts, or null on the last page. */
  next: ListPosition | null;
}

/**
 * An account's own executions and approvals, newest first, a page at a time: one page reads
 * `limit + 1` records so it knows whether another page follows.
 */
export class AccountRecords {
  constructor(private readonly deps: Pick<ExecutionDeps, 'executions' | 'approvals' | 'clock'>) {}

  async executions(accountId: string, filter: RecordFilter, limit: number, after?: ListPosition): Promise<RecordPage<Execution>> {
    const rows = await this.deps.executions.list(accountId, { ...filter, limit: limit + 1, now: this.deps.clock.now(), ...(after ? { after } : {}) });
    return pageOf(rows, limit);
  }

  async approvals(accountId: string, filter: RecordFilter, limit: number, after?: ListPosition): Promise<RecordPage<Approval>> {
    const rows = await this.deps.approvals.list(accountId, { ...filter, limit: limit + 1, now: this.deps.clock.now(), ...(after ? { after } : {}) });
    return pageOf(rows, limit);
  }
}

function pageOf<T extends { createdAt: number; id: string }>(rows: T[], limit: number): RecordPage<T> {
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? positionOf(items.at(-1)!) : null };
}
