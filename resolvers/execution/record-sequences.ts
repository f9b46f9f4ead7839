import type { Approval, Execution } from '../../src/execution/execution-types.js';
import { invalidParameter } from '../../src/errors/error-factories.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';

/**
 * Sequence numbers of the private topics are per record and derived from the stored record, so
 * every replica and every subscriber gives an event the same number: an execution's is its count
 * of state changes (its history length; `accepted` is not published, so its first event is 2), an
 * approval's is 1 when requested, 2 once decided and 3 once consumed by its execution (that last
 * change has no event: a reconnecting client is told it missed it, and refetches).
 */
export const executionSequence = (e: Execution): number => e.history.length;
export const approvalSequence = (a: Approval): number => 1 + (a.decidedAt === null ? 0 : 1) + (a.consumedAt === null ? 0 : 1);

/** When the published change was produced: the record's last change. */
export const executionProducedAt = (e: Execution): number => e.updatedAt;
export const approvalProducedAt = (a: Approval): number => a.consumedAt ?? a.decidedAt ?? a.createdAt;

/** A record sent on subscribe with a last sequence: whether it changed after that one. */
export type WithMissed<T> = T & { missedEvents?: boolean };

export type RecordTopic = 'execution:updated' | 'approval:updated';

/**
 * The current state of one record, sent first to a client reconnecting with the last sequence it
 * saw (a sequence is per record, so lastSequence needs the record's id).
 */
export function currentRecord(
  ctx: GatewayContext,
  topic: RecordTopic,
  accountId: string,
  id: string | null | undefined,
  lastSequence: number | null | undefined,
): (() => Promise<WithMissed<Execution | Approval>[]>) | undefined {
  if (lastSequence == null) return undefined;
  const idName = topic === 'execution:updated' ? 'executionId' : 'approvalId';
  if (!id) throw invalidParameter('invalid_subscription', 'lastSequence', `'lastSequence' needs '${idName}': sequence numbers are per ${idName.slice(0, -2)}`);
  const { execution } = ctx.services;
  return async () => {
    if (topic === 'execution:updated') {
      const e = await execution.executions.get(accountId, id);
      return [{ ...e, missedEvents: executionSequence(e) > lastSequence }];
    }
    const a = await execution.approvals.get(accountId, id);
    return [{ ...a, missedEvents: approvalSequence(a) > lastSequence }];
  };
}
