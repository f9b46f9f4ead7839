import { randomUUID } from 'node:crypto';
import { Decimal } from '../domain/decimal.js';
import type { Principal } from '../auth/authenticator.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { AgentSessions } from './agent-sessions.js';
import { EXECUTION_CLAIM_TTL_MS, type ExecutionDeps } from './execution-deps.js';
import type { Execution, ExecutionState } from './execution-types.js';
import { createGateContext } from './gate-context.js';
import { block, gateError, type GateVerdict } from './gate-verdict.js';
import { firstBlock } from './gates.js';
import { instructionHash, parseInstruction } from './instruction.js';
import type { Previews } from './previews.js';
import { resolveTarget } from './target.js';
import type { Quote } from './venues/execution-venue.js';
import { invalidField, notFound } from '../errors/error-factories.js';

export const executionKey = (accountId: string, referenceId: string) => `execute:${accountId}:${referenceId}`;

/** How long a claim may stay without an execution record (a crash between the two). */
const PENDING_CLAIM_TTL_MS = 2 * 60_000;

const negated = (changes: Record<string, string>) => Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, new Decimal(v).neg().toString()]));

/** The stores' clean 503 for an unreachable shared state (Redis mode). */
export function isPolicyStoreOutage(e: unknown): boolean {
  return e instanceof GatewayError && e.code === 'shared_state_unavailable';
}

export function policyUnavailable(): GatewayError {
  return gateError(block('authority', 'POLICY_UNAVAILABLE', 'policy_store', 'Policy could not be checked; nothing was executed.'));
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
  ) {}

  async get(accountId: string, id: string): Promise<Execution> {
    const e = await this.deps.executions.get(id);
    if (!e || e.accountId !== accountId) throw notFound('execution_not_found', `No execution ${id} for this account.`);
    return e;
  }

  async byReference(accountId: string, referenceId: string): Promise<Execution> {
    const e = await this.deps.executions.findByReference(accountId, referenceId);
    if (!e) throw notFound('execution_not_found', `No execution with referenceId ${referenceId}.`);
    return e;
  }

  async execute(principal: Principal, input: Record<string, unknown>): Promise<{ execution: Execution; replayed: boolean }> {
    try {
      return await this.gatedExecute(principal, input);
    } catch (e) {
      // Shared state unreachable mid-way: fail closed with the spec's code; nothing reached the venue.
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
    if (previous?.instructionHash === hash) return { execution: previous, replayed: true };

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
    // Held briefly until the execution record exists, so a crash here frees the referenceId soon.
    const claim = await deps.idempotency.claim(key, hash, PENDING_CLAIM_TTL_MS);
    if (!claim.claimed) {
      if (claim.fingerprint === hash && claim.value) return { execution: await this.get(account.id, claim.value), replayed: true };
      return refuse(
        block(
          'idempotency',
          'IDEMPOTENCY_CONFLICT',
          'in_progress',
          claim.fingerprint === hash ? 'This referenceId is being executed.' : 'This referenceId is taken by a different instruction.',
        ),
      );
    }

    const id = `exe_${randomUUID()}`;
    try {
      if (authority.approval) {
        const consumed = await deps.approvals.consume(authority.approval.id, hash, id, deps.clock.now());
        if (consumed !== 'consumed') {
          await deps.idempotency.release(key, hash);
          return refuse(block('authority', 'POLICY_DENIED', 'approval', `The approval cannot be used: ${consumed.replace(/_/g, ' ')}.`));
        }
      } else if (authority.session && !(await this.agentSessions.spend(authority.session, quote.notionalUsd, deps.clock.now()))) {
        await deps.idempotency.release(key, hash);
        return refuse(
          block('authority', 'POLICY_DENIED', 'period_cap', `The order would pass the session cap of ${authority.session.maxPeriodNotional} USD per period.`),
        );
      }
    } catch (err) {
      await deps.idempotency.release(key, hash).catch(() => undefined);
      deps.logger.error({ err }, 'policy store failed while committing');
      return refuse(block('authority', 'POLICY_UNAVAILABLE', 'policy_store', 'Policy could not be checked.'));
    }

    const execution: Execution = {
      id,
      accountId: account.id,
      referenceId: ref,
      instructionHash: hash,
      protocol: instruction.protocol,
      action: instruction.action,
      state: 'accepted',
      principal: principal.kind === 'wallet' ? { kind: 'wallet_session', id: principal.sessionId } : { kind: 'api_key', id: principal.key.id },
      approvalId: authority.approval?.id ?? null,
      agentSessionId: authority.session?.id ?? null,
      fill: null,
      reason: null,
      createdAt: now,
      updatedAt: now,
      history: [{ state: 'accepted', at: now, reason: null }],
    };
    try {
      await deps.executions.create(execution);
      await deps.idempotency.complete(key, hash, id, EXECUTION_CLAIM_TTL_MS);
      await this.advance(execution, 'submitted', null);
    } catch (e) {
      // Nothing reached the venue: free the referenceId (the approval or spend stays used).
      await deps.idempotency.release(key, hash).catch(() => undefined);
      throw e;
    }

    try {
      // The fill honours what the client previewed (the swap's minAmountOut), not a re-quote.
      const venueCtx = { reader: deps.reader, cache: deps.cache, now: deps.clock.now(), balances };
      const fill = await target.venue.fill(instruction, preview.quote ?? quote, venueCtx);
      if (fill.state === 'rejected') {
        await this.advance(execution, 'rejected', fill.reason);
      } else {
        const applied = await deps.ledger.apply(account.id, fill.changes, quote.mayGoNegative);
        const breach =
          applied.ok && target.venue.afterFill
            ? await target.venue.afterFill(instruction, { ...venueCtx, balances: await deps.ledger.balancesOf(account) })
            : null;
        if (!applied.ok) {
          await this.advance(execution, 'rejected', `Insufficient ${applied.token} at fill: ${applied.available} available, ${applied.required} needed.`);
        } else if (breach) {
          // A concurrent order got in first: undo this one rather than leave the account in breach.
          await deps.ledger.apply(account.id, negated(fill.changes), Object.keys(fill.changes));
          await this.advance(execution, 'rejected', breach);
        } else {
          execution.fill = fill.fill;
          await this.advance(execution, fill.state, fill.reason);
        }
      }
    } catch (err) {
      // The venue's answer is unknown: the client reconciles by referenceId before any retry.
      deps.logger.error({ err, executionId: id }, 'venue failed during submission');
      await this.advance(execution, 'unknown', 'The venue did not confirm the order; reconcile by referenceId before retrying.');
    }
    await deps.audit.record(account.id, 'execution', ref, {
      executionId: id,
      state: execution.state,
      instructionHash: hash,
      approvalId: execution.approvalId,
      agentSessionId: execution.agentSessionId,
      fill: execution.fill,
    });
    return { execution, replayed: false };
  }

  private async advance(execution: Execution, state: ExecutionState, reason: string | null): Promise<void> {
    const at = this.deps.clock.now();
    execution.state = state;
    execution.reason = reason;
    execution.updatedAt = at;
    execution.history.push({ state, at, reason });
    await this.deps.executions.update(execution);
    this.deps.events.publish('execution:updated', structuredClone(execution));
  }
}
