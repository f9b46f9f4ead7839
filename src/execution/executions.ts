import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/authenticator.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { AgentSessions } from './agent-sessions.js';
import { EXECUTION_CLAIM_TTL_MS, type ExecutionDeps } from './execution-deps.js';
import { isFinalState, type Execution } from './execution-types.js';
import { createGateContext, type GateContext } from './gate-context.js';
import { advance, settledBeforeVenue } from './execution-progress.js';
import { RECONCILE_GRACE_MS, type ExecutionReconciler } from './execution-reconciler.js';
import { periodStartOf } from './agent-session-scope.js';
import { submitToVenue } from './venue-submission.js';
import { block, gateError, type GateVerdict } from './gate-verdict.js';
import { firstBlock, standingBlocks } from './gates.js';
import { instructionHash, parseInstruction } from './instruction.js';
import type { Previews } from './previews.js';
import { resolveTarget } from './target.js';
import type { Quote } from './venues/execution-venue.js';
import { conflict, invalidField, notFound } from '../errors/error-factories.js';
import { venueRefused } from '../errors/venue-refusals.js';
import { applyVenueOrder, executionStateOf, fillOf, OrderBusy, routedMarketOf, routedVenueOf, withOrderLock } from './routed-orders.js';
import { VenueRefusal } from './venues/routed-venue.js';

export const executionKey = (accountId: string, referenceId: string) => `execute:${accountId}:${referenceId}`;

/** How long a claim may stay without an execution record (a crash between the two). */
const PENDING_CLAIM_TTL_MS = 2 * 60_000;

/** The stores' clean 503 for an unreachable shared state (Redis mode). */
export function isPolicyStoreOutage(e: unknown): boolean {
  return e instanceof GatewayError && e.code === 'shared_state_unavailable';
}

export function policyUnavailable(): GatewayError {
  return gateError(block('authority', 'POLICY_UNAVAILABLE', 'policy_store', 'Policy could not be checked; nothing was executed.'));
}

/** A store outage after the claim but before the venue: the answer names the claimed execution and says it was never sent. */
function notSentAfterClaim(e: Execution): GatewayError {
  return gateError(
    block(
      'authority',
      'POLICY_UNAVAILABLE',
      'policy_store',
      `Shared state failed after referenceId ${e.referenceId} was claimed (execution ${e.id}); the order was not sent and will not be, so nothing was executed. ` +
        'The reconciler marks it failed and frees the referenceId: send the same body again once the gateway answers.',
    ),
  );
}

/**
 * POST /api/v1/execute: the unchanged request plus approvalId (interactive) or an active agent
 * session (API key). Gates run in the DESIGN order and fail closed; then, atomically, the
 * referenceId is claimed, the approval consumed or the session spend counted, and the order
 * goes to the paper venue. A same-body retry replays the execution; nothing runs twice.
 */
export class Executions {
  constructor(
    private readonly deps: ExecutionDeps,
    private readonly previews: Previews,
    private readonly agentSessions: AgentSessions,
    private readonly reconciler: ExecutionReconciler,
  ) {}

  async get(accountId: string, id: string): Promise<Execution> {
    const e = await this.deps.executions.get(id);
    if (!e || e.accountId !== accountId) throw notFound('execution_not_found', `No execution ${id} for this account.`);
    return e;
  }

  async byReference(accountId: string, referenceId: string): Promise<Execution> {
    const e = await this.deps.executions.findByReference(accountId, referenceId);
    // One that ended before reaching the venue left its referenceId free: nothing was executed under it.
    if (!e || settledBeforeVenue(e)) throw notFound('execution_not_found', `No execution with referenceId ${referenceId}.`);
    return this.current(e);
  }

  async execute(principal: Principal, input: Record<string, unknown>): Promise<{ execution: Execution; replayed: boolean }> {
    try {
      // Answered only once every write it made is durable; its writes share commits with concurrent requests.
      return await this.deps.durability.together(() => this.gatedExecute(principal, input));
    } catch (e) {
      // Shared state unreachable before the order was sent: fail closed with the spec's code.
      // Nothing reached the venue (after that point the answer is the execution, `unknown`).
      if (isPolicyStoreOutage(e)) throw policyUnavailable();
      throw e;
    }
  }

  private async gatedExecute(principal: Principal, input: Record<string, unknown>): Promise<{ execution: Execution; replayed: boolean }> {
    const { deps } = this;
    const { approvalId, ...request } = input;
    if (approvalId !== undefined && approvalId !== null && typeof approvalId !== 'string') {
      throw invalidField('approvalId', 'must be a string');
    }
    const instruction = parseInstruction(request);
    const target = resolveTarget(deps.protocols, deps.venues, instruction);
    const hash = instructionHash(instruction);
    const account = (await deps.identities.getAccount(principal.account.id)) ?? principal.account;
    const ref = instruction.referenceId;

    const refuse = async (verdict: GateVerdict): Promise<never> => {
      await deps.audit.record(account.id, 'execution_refused', ref, { code: verdict.code, gate: verdict.gate, check: verdict.check, instructionHash: hash });
      throw gateError(verdict);
    };

    // README, Idempotency: a same-body replay of a recorded execution is its record, answered
    // before the gates (it runs nothing); a conflicting reuse is the idempotency gate, last.
    const previous = await deps.executions.findByReference(account.id, ref);
    if (previous?.instructionHash === hash && !settledBeforeVenue(previous)) return { execution: await this.current(previous), replayed: true };

    const now = deps.clock.now();
    const ctx = createGateContext(deps, {
      mode: 'execute',
      principal,
      account,
      instruction,
      hash,
      target,
      approvalId: approvalId ?? undefined,
      now,
      findPreview: () => this.previews.find(account.id, ref),
    });
    const blocked = await firstBlock(ctx);
    if (blocked) await refuse(blocked);
    const { quote } = (await ctx.priced()) as { quote: Quote };
    const balances = await ctx.balances();
    const preview = (await ctx.storedPreview())!;
    const authority = ctx.authority;

    const key = executionKey(account.id, ref);
    // Held briefly until the execution is bound to it, so a crash here frees the referenceId soon.
    const claim = await deps.idempotency.claim(key, hash, PENDING_CLAIM_TTL_MS);
    if (!claim.claimed) {
      if (claim.fingerprint === hash && claim.value) return { execution: await this.current(await this.get(account.id, claim.value)), replayed: true };
      return refuse(
        block(
          'idempotency',
          'IDEMPOTENCY_CONFLICT',
          'in_progress',
          claim.fingerprint === hash ? 'This referenceId is being executed.' : 'This referenceId is taken by a different instruction.',
        ),
      );
    }

    // From the claim on, every step is recorded before the next, so the reconciler can finish
    // what an outage or a crash interrupts. Until the order is sent nothing was executed.
    const execution: Execution = {
      id: `exe_${randomUUID()}`,
      accountId: account.id,
      referenceId: ref,
      instructionHash: hash,
      protocol: instruction.protocol,
      action: instruction.action,
      state: 'accepted',
      principal: principal.kind === 'wallet' ? { kind: 'wallet_session', id: principal.sessionId } : { kind: 'api_key', id: principal.key.id },
      approvalId: authority.approval?.id ?? null,
      agentSessionId: authority.session?.id ?? null,
      spend: authority.session ? { periodStart: periodStartOf(authority.session, now), amount: quote.notionalUsd } : null,
      fill: null,
      reason: null,
      createdAt: now,
      updatedAt: now,
      history: [{ state: 'accepted', at: now, reason: null }],
    };
    try {
      await deps.executions.create(execution);
    } catch (e) {
      await deps.idempotency.release(key, hash).catch(() => undefined);
      throw e;
    }
    try {
      const refused = await this.commitAuthority(execution, authority, quote);
      if (refused) {
        await advance(deps, execution, 'rejected', refused.reason);
        await deps.idempotency.release(key, hash);
        return refuse(refused);
      }
      await deps.idempotency.complete(key, hash, execution.id, EXECUTION_CLAIM_TTL_MS);
      await advance(deps, execution, 'submitted', null);
    } catch (e) {
      // Nothing was sent to the venue and nothing will be: give back what was taken, now if
      // the store answers, else when the reconciler runs.
      await this.reconciler.reconcile(execution).catch(() => undefined);
      if (isPolicyStoreOutage(e)) throw notSentAfterClaim(execution);
      throw e;
    }
    const venueCtx = { reader: deps.reader, cache: deps.cache, now: deps.clock.now(), balances };
    const done = await submitToVenue(deps, {
      execution,
      account,
      instruction,
      target,
      quote: preview.quote ?? quote,
      mayGoNegative: quote.mayGoNegative,
      venueCtx,
    });
    return { execution: done, replayed: false };
  }

  /**
   * Cancels the rest of a routed order resting at its venue. Gated as a live action: the
   * caller's authority over the protocol action (wallet readiness, the live scope, an agent
   * session covering it for a key) and the kill switch and the venue's circuit breaker; the
   * venue's answer moves the execution (cancelled, or filled if it filled first) and the audit
   * chain records the request.
   */
  async cancel(principal: Principal, executionId: string): Promise<Execution> {
    const { deps } = this;
    const found = await this.get(principal.account.id, executionId);
    const venue = routedVenueOf(deps, found.protocol);
    const market = routedMarketOf(deps, found);
    if (!venue || !found.order?.resting || !market) {
      throw conflict('execution_not_open', `Execution ${executionId} has nothing resting at a venue to cancel (it is ${found.state}).`);
    }
    const protocol = deps.protocols.visibleProtocols().find((p) => p.id === found.protocol);
    const action = protocol?.actions.find((a) => a.id === found.action);
    if (!protocol || !action) throw conflict('execution_not_open', `Execution ${executionId}'s protocol is no longer offered.`);
    const blocks = await standingBlocks({ deps, principal, protocol, action, now: deps.clock.now() });
    // Stale or degraded market data does not stop a cancel; the operator's halts and the caller's authority do.
    const refusal = blocks.find((b) => b.gate === 'authority' || (b.gate === 'venue' && (b.check === 'kill_switch' || b.check === 'circuit_breaker')));
    if (refusal) {
      await deps.audit.record(found.accountId, 'execution_cancel_refused', found.referenceId, {
        executionId,
        code: refusal.code,
        gate: refusal.gate,
        check: refusal.check,
      });
      throw gateError(refusal);
    }
    await deps.audit.record(found.accountId, 'execution_cancel', found.referenceId, {
      executionId,
      clientOrderId: found.order.clientOrderId,
      principal: principal.kind,
    });
    let state;
    try {
      state = await venue.cancel(found.order.clientOrderId, market);
    } catch (err) {
      if (err instanceof VenueRefusal) throw venueRefused(err.code, venue.protocolId, err.reason, { executionId });
      deps.logger.warn({ executionId, err: err instanceof Error ? err.message : String(err) }, 'venue did not answer a cancel');
      throw venueRefused('VENUE_UNHEALTHY', venue.protocolId, 'no answer to the cancel; the order may still rest (read the execution back)', { executionId });
    }
    try {
      return await withOrderLock(deps, executionId, async (e) => {
        await applyVenueOrder(deps, e, state, { cancelRequested: true });
        return e;
      });
    } catch (err) {
      if (!(err instanceof OrderBusy)) throw err;
      // The venue answered the cancel; another update of this order holds its lock and records the same news.
      const { state: now, resting } = executionStateOf(state);
      return { ...found, state: now, fill: fillOf(state, found.order.amount) ?? found.fill, order: { ...found.order, resting } };
    }
  }

  /** Consumes the approval or counts the session spend; the refusal when that fails. */
  private async commitAuthority(execution: Execution, authority: GateContext['authority'], quote: Quote): Promise<GateVerdict | undefined> {
    const { deps } = this;
    if (authority.approval) {
      const consumed = await deps.approvals.consume(authority.approval.id, execution.instructionHash, execution.id, deps.clock.now());
      if (consumed !== 'consumed') return block('authority', 'POLICY_DENIED', 'approval', `The approval cannot be used: ${consumed.replace(/_/g, ' ')}.`);
    } else if (authority.session && !(await this.agentSessions.spend(authority.session, quote.notionalUsd, deps.clock.now(), execution.id))) {
      return block(
        'authority',
        'POLICY_DENIED',
        'period_cap',
        `The order would pass the session cap of ${authority.session.maxPeriodNotional} USD per period.`,
      );
    }
    return undefined;
  }

  /** A recorded execution as it stands; one still open past its grace is reconciled first. */
  private async current(e: Execution): Promise<Execution> {
    // A resting routed order is kept current by its venue's order stream (OrderFollower).
    if (isFinalState(e.state) || e.order?.resting || (e.state !== 'unknown' && this.deps.clock.now() - e.updatedAt < RECONCILE_GRACE_MS)) return e;
    return this.reconciler.reconcile(e).catch(() => e);
  }
}
