import type { ExecutionDeps } from './execution-deps.js';
import type { Execution, ExecutionState, Fill } from './execution-types.js';

/**
 * What a paper venue keeps of one order under its client order id (the execution id), as a
 * real venue keeps a client order id: the reconciler asks it when an execution's outcome is
 * unknown. `void` is the reconciler's mark on an id that never reached the venue: a booking
 * that arrives after it is refused, so an order either reached the venue or never will.
 */
export interface VenueOrderRecord {
  state: 'filled' | 'partially_filled' | 'rejected' | 'void';
  fill: Fill | null;
  reason: string | null;
}

export const VOID_RECORD: VenueOrderRecord = { state: 'void', fill: null, reason: null };

export const NEVER_REACHED_VENUE = 'The order never reached the venue; nothing was executed (an approval or session spend it took is given back).';
export const OUTCOME_UNKNOWN = 'The outcome is not confirmed yet; it is being reconciled with the venue by referenceId. Read it back before any retry.';

export function parseVenueOrder(raw: string): VenueOrderRecord {
  return JSON.parse(raw) as VenueOrderRecord;
}

/** An execution that ended before anything was sent to the venue (a refusal at commit, or a void). */
export function settledBeforeVenue(e: Execution): boolean {
  return (e.state === 'rejected' || e.state === 'failed') && !e.history.some((h) => h.state === 'submitted');
}

/** Moves an execution to its next state, stores it and tells subscribers. */
export async function advance(deps: ExecutionDeps, execution: Execution, state: ExecutionState, reason: string | null): Promise<void> {
  const at = deps.clock.now();
  execution.state = state;
  execution.reason = reason;
  execution.updatedAt = at;
  execution.history.push({ state, at, reason });
  await deps.executions.update(execution);
  deps.events.publish('execution:updated', structuredClone(execution));
}

/** What the agent session's period keeps counting for an execution in this state: the filled notional, else nothing. */
export async function settleSpend(deps: ExecutionDeps, execution: Execution): Promise<void> {
  if (!execution.agentSessionId || !execution.spend) return;
  // A cancelled order may have filled in part before the cancel: what filled is spent.
  const spent = execution.state === 'filled' || execution.state === 'partially_filled' || execution.state === 'cancelled';
  const amount = execution.fill && spent ? execution.fill.notional : '0';
  await deps.agentSessions.settleSpend(execution.agentSessionId, execution.spend.periodStart, execution.id, amount);
}

export function auditExecution(deps: ExecutionDeps, e: Execution, extra: Record<string, unknown> = {}): Promise<void> {
  return deps.audit.record(e.accountId, 'execution', e.referenceId, {
    executionId: e.id,
    state: e.state,
    instructionHash: e.instructionHash,
    approvalId: e.approvalId,
    agentSessionId: e.agentSessionId,
    fill: e.fill,
    ...extra,
  });
}
