import { randomUUID } from 'node:crypto';
import type { ExecutionDeps } from './execution-deps.js';
import { isFinalState, isSettled, type Execution } from './execution-types.js';
import { applyVenueOrder, OrderBusy, routedMarketOf, routedVenueOf, withOrderLock } from './routed-orders.js';
import type { RoutedVenue } from './venues/routed-venue.js';
import { advance, auditExecution, NEVER_REACHED_VENUE, parseVenueOrder, settleSpend, VOID_RECORD } from './execution-progress.js';

/** An execution on its way (accepted, submitted) is left to its request this long before the reconciler steps in. */
export const RECONCILE_GRACE_MS = 10_000;
const LOCK_TTL_MS = 30_000;
const BATCH = 200;
/**
 * A routed order its venue has no record of is taken as never placed only this long after it
 * was sent (a request still on its way could land until then; every adapter's timeout is shorter).
 */
export const ROUTED_UNSEEN_MS = 60_000;

/**
 * Finishes executions whose request could not: a store outage or a crash after the referenceId
 * was claimed, or a venue that did not confirm. Every replica runs one, on start and then
 * periodically (so also once the store is back); a short lock makes it one at a time per
 * execution. The venue's record of the client order id decides: a booking gives the final
 * state and fill; no booking is voided at the venue (so a late submission cannot land), the
 * execution ends `failed`, and its approval and session spend are given back.
 */
export class ExecutionReconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private readonly holder = `reconciler_${randomUUID()}`;

  constructor(private readonly deps: ExecutionDeps) {}

  /** Finishes one execution; answers it as it now stands (unchanged when another replica holds it). */
  async reconcile(execution: Execution): Promise<Execution> {
    const { deps } = this;
    const routed = routedVenueOf(deps, execution.protocol);
    if (routed) return this.reconcileRouted(execution, routed);
    if (isFinalState(execution.state)) return execution;
    const lock = `reconcile:${execution.id}`;
    const claim = await deps.idempotency.claim(lock, this.holder, LOCK_TTL_MS);
    if (!claim.claimed) return execution;
    try {
      const e = (await deps.executions.get(execution.id)) ?? execution;
      if (isFinalState(e.state)) return e;
      let raw = await deps.ledger.order(e.accountId, e.id);
      if (raw === undefined) {
        const voided = await deps.ledger.book(e.accountId, e.id, { changes: {}, mayGoNegative: [], record: JSON.stringify(VOID_RECORD) });
        raw = voided.booked ? JSON.stringify(VOID_RECORD) : voided.existing;
      }
      const order = parseVenueOrder(raw ?? JSON.stringify(VOID_RECORD));
      if (order.state === 'void') {
        if (e.approvalId) await deps.approvals.release(e.approvalId, e.id);
        e.fill = null;
      } else {
        e.fill = order.fill;
      }
      const state = order.state === 'void' ? 'failed' : order.state;
      const reason = order.state === 'void' ? NEVER_REACHED_VENUE : order.reason;
      await settleSpend(deps, { ...e, state });
      await advance(deps, e, state, reason);
      await auditExecution(deps, e, { reconciled: true });
      deps.logger.info({ executionId: e.id, state }, 'execution reconciled');
      return e;
    } finally {
      await deps.idempotency.release(lock, this.holder).catch(() => undefined);
    }
  }

  /**
   * A routed execution: the venue's record of its client order id decides. An order the venue
   * holds moves the execution to its state; one the venue never received (past ROUTED_UNSEEN_MS)
   * or never sent ends `failed`, its approval and session spend given back; a venue that cannot
   * be asked leaves it as it is for the next pass.
   */
  private async reconcileRouted(execution: Execution, venue: RoutedVenue): Promise<Execution> {
    const { deps } = this;
    if (isSettled(execution)) return execution;
    const order = execution.order;
    const market = routedMarketOf(deps, execution);
    let record = null;
    if (order && market) {
      try {
        record = await venue.lookup(order.clientOrderId, market);
      } catch (err) {
        deps.logger.warn(
          { executionId: execution.id, err: err instanceof Error ? err.message : String(err) },
          'venue not reachable to reconcile an order; next pass',
        );
        return execution;
      }
    }
    const sentAt = execution.history.find((h) => h.state === 'submitted')?.at ?? execution.createdAt;
    if (!record && order && market && deps.clock.now() - sentAt < ROUTED_UNSEEN_MS) return execution;
    return this.underOrderLock(execution, async (e) => {
      if (record) {
        if (await applyVenueOrder(deps, e, record, { reconciled: true }))
          deps.logger.info({ executionId: e.id, state: e.state }, 'routed execution reconciled');
        return e;
      }
      if (isSettled(e) || e.state === 'open' || e.state === 'partially_filled') return e;
      if (e.approvalId) await deps.approvals.release(e.approvalId, e.id);
      e.fill = null;
      await settleSpend(deps, { ...e, state: 'failed' });
      await advance(deps, e, 'failed', NEVER_REACHED_VENUE);
      await auditExecution(deps, e, { reconciled: true, clientOrderId: order?.clientOrderId ?? null });
      deps.logger.info({ executionId: e.id }, 'routed execution never reached its venue');
      return e;
    });
  }

  /** Runs `update` under the execution's order lock; one held elsewhere leaves it for the next pass. */
  private async underOrderLock(execution: Execution, update: (e: Execution) => Promise<Execution>): Promise<Execution> {
    try {
      // No waiting: a pass never stalls on one order; the next pass comes soon.
      return await withOrderLock(this.deps, execution.id, update, { tries: 0 });
    } catch (err) {
      if (!(err instanceof OrderBusy)) throw err;
      this.deps.logger.warn({ executionId: execution.id }, 'order being updated elsewhere; reconciled on the next pass');
      return execution;
    }
  }

  /** One pass over the open executions; returns how many it finished. */
  runOnce(options: { graceMs?: number } = {}): Promise<number> {
    this.running ??= this.pass(options.graceMs ?? RECONCILE_GRACE_MS).finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(graceMs: number): Promise<number> {
    const now = this.deps.clock.now();
    let finished = 0;
    for (const e of await this.deps.executions.listOpen(BATCH)) {
      if (e.state !== 'unknown' && now - e.updatedAt < graceMs) continue;
      if (isSettled(await this.reconcile(e))) finished++;
    }
    return finished;
  }

  start(everyMs: number): void {
    const tick = () => {
      this.runOnce().catch((err: unknown) => this.deps.logger.warn({ err }, 'reconciler pass failed (store unreachable?); retrying'));
    };
    tick();
    this.timer = setInterval(tick, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
