import type { Approval, ApprovalState, Execution } from './execution-types.js';

/** Where a page ends: the last record's creation time and id (records are listed newest first). */
export interface ListPosition {
  at: number;
  id: string;
}

export interface RecordFilter {
  state?: string;
  protocol?: string;
  /** Records whose referenceId starts with this. */
  referencePrefix?: string;
  /** Created at or after (ms). */
  from?: number;
  /** Created at or before (ms). */
  to?: number;
}

export interface ListQuery extends RecordFilter {
  /** At most this many records. */
  limit: number;
  /** Only records strictly after this position in newest-first order. */
  after?: ListPosition;
  /** For states that depend on time (an approval past its expiry reads `expired`). */
  now: number;
}

type Listed = { createdAt: number; id: string };

export const positionOf = (r: Listed): ListPosition => ({ at: r.createdAt, id: r.id });

/** Newest first; ties by id, descending. */
export const newestFirst = (a: Listed, b: Listed): number => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export const isAfter = (r: Listed, p: ListPosition | undefined): boolean => !p || r.createdAt < p.at || (r.createdAt === p.at && r.id < p.id);

const inRange = (at: number, q: RecordFilter) => (q.from === undefined || at >= q.from) && (q.to === undefined || at <= q.to);

export function executionMatches(e: Execution, q: ListQuery): boolean {
  return (
    (!q.state || e.state === q.state) &&
    (!q.protocol || e.protocol === q.protocol) &&
    (!q.referencePrefix || e.referenceId.startsWith(q.referencePrefix)) &&
    inRange(e.createdAt, q)
  );
}

/** The state an approval reads as at `now`: pending and approved ones past their expiry are expired. */
export function approvalStateAt(a: Approval, now: number): ApprovalState {
  return (a.state === 'pending' || a.state === 'approved') && a.expiresAt <= now ? 'expired' : a.state;
}

export function approvalMatches(a: Approval, q: ListQuery): boolean {
  const reference = typeof a.instruction.referenceId === 'string' ? a.instruction.referenceId : '';
  return (
    (!q.state || approvalStateAt(a, q.now) === q.state) &&
    (!q.protocol || a.instruction.protocol === q.protocol) &&
    (!q.referencePrefix || reference.startsWith(q.referencePrefix)) &&
    inRange(a.createdAt, q)
  );
}

/**
 * One page: walks an account's records newest first in batches (each store reads its own way,
 * from a position), keeping those that match, until `limit` are found or the records end.
 */
export async function collectPage<T extends Listed>(
  batch: (after: ListPosition | undefined, size: number) => Promise<T[]>,
  match: (record: T) => boolean,
  q: ListQuery,
): Promise<T[]> {
  const out: T[] = [];
  const size = Math.min(Math.max(q.limit * 2, 50), 500);
  let after = q.after;
  for (;;) {
    const records = await batch(after, size);
    for (const r of records) {
      if (match(r)) out.push(r);
      if (out.length === q.limit) return out;
    }
    if (records.length < size) return out;
    after = positionOf(records.at(-1)!);
  }
}
