import DataLoader from 'dataloader';
import { APPROVAL_TTL_MS } from '../../src/execution/execution-deps.js';
import type { AuditEntry, Execution } from '../../src/execution/execution-types.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { invalidCursor } from '../../src/errors/error-factories.js';

/** Entries read from the chain per store call while walking it back. */
const SCAN_BATCH = 200;

export interface AuditFilter {
  type?: string | undefined;
  referenceId?: string | undefined;
  /** Written at or after (ms). */
  from?: number;
  /** Written at or before (ms). */
  to?: number;
}

/**
 * Walks an account's audit chain from the newest entry (or from before `beforeSeq`) back to its
 * start, a batch at a time, handing each entry newest first to `visit` until it answers false.
 */
async function walkBack(ctx: GatewayContext, accountId: string, beforeSeq: number | undefined, visit: (e: AuditEntry) => boolean): Promise<void> {
  let before = beforeSeq;
  for (;;) {
    const batch = await ctx.services.execution.audit.read(accountId, SCAN_BATCH, before);
    for (let i = batch.entries.length - 1; i >= 0; i--) if (!visit(batch.entries[i]!)) return;
    const oldest = batch.entries[0];
    if (!oldest || oldest.seq <= 1 || batch.entries.length < SCAN_BATCH) return;
    before = oldest.seq;
  }
}

/**
 * One page of the account's audit log, newest first, filtered. The chain is written in time
 * order, so a `from` bound ends the walk at the first older entry.
 */
export async function auditPage(
  ctx: GatewayContext,
  accountId: string,
  filter: AuditFilter,
  first: number,
  after: { a: string; before: number } | undefined,
): Promise<{ entries: AuditEntry[]; more: boolean }> {
  if (after && after.a !== accountId) throw invalidCursor('after', "'after' continues another account's log.");
  const entries: AuditEntry[] = [];
  let more = false;
  await walkBack(ctx, accountId, after?.before, (e) => {
    const at = Date.parse(e.at);
    if (filter.from !== undefined && at < filter.from) return false;
    if ((filter.to !== undefined && at > filter.to) || (filter.type && e.type !== filter.type) || (filter.referenceId && e.referenceId !== filter.referenceId))
      return true;
    if (entries.length === first) {
      more = true;
      return false;
    }
    entries.push(e);
    return true;
  });
  return { entries, more };
}

/** Whether an audit entry is about this execution: one of its states, or its approval's creation and decision. */
const namesExecution = (e: AuditEntry, x: Execution): boolean =>
  e.details['executionId'] === x.id || (x.approvalId !== null && e.details['approvalId'] === x.approvalId);

/**
 * The audit entries of executions, oldest first, batched per account: one walk back over the
 * chain serves every execution of a page. Nothing about an execution is written before its
 * approval, which is at most an approval lifetime older than the execution, so the walk stops there.
 */
async function entriesOfExecutions(ctx: GatewayContext, executions: readonly Execution[]): Promise<AuditEntry[][]> {
  const byAccount = new Map<string, Execution[]>();
  for (const x of new Map(executions.map((x) => [x.id, x])).values()) byAccount.set(x.accountId, [...(byAccount.get(x.accountId) ?? []), x]);
  const found = new Map<string, AuditEntry[]>(executions.map((x) => [x.id, []]));
  await Promise.all(
    [...byAccount].map(([accountId, xs]) => {
      const oldest = Math.min(...xs.map((x) => x.createdAt)) - APPROVAL_TTL_MS;
      return walkBack(ctx, accountId, undefined, (e) => {
        if (Date.parse(e.at) < oldest) return false;
        for (const x of xs) if (namesExecution(e, x)) found.get(x.id)!.unshift(e);
        return true;
      });
    }),
  );
  return executions.map((x) => found.get(x.id)!);
}

const perRequest = new WeakMap<GatewayContext, DataLoader<Execution, AuditEntry[], string>>();

/**
 * The request's loader of Execution.auditEntries: it batches, and keeps nothing, because a
 * subscription's context lives across its events (executionUpdated { auditEntries } must read again).
 */
export function executionAuditLoader(ctx: GatewayContext): DataLoader<Execution, AuditEntry[], string> {
  let loader = perRequest.get(ctx);
  if (!loader) {
    loader = new DataLoader((xs) => entriesOfExecutions(ctx, xs), { cache: false });
    perRequest.set(ctx, loader);
  }
  return loader;
}
