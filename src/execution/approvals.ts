import { approvalStateAt } from './record-listing.js';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/authenticator.js';
import { FRESH_SIGNATURE_MS, type WalletSessions } from '../auth/wallet-sessions.js';
import { APPROVAL_TTL_MS, type ExecutionDeps } from './execution-deps.js';
import type { Approval, ApprovalState } from './execution-types.js';
import { quoteVerdict } from './gates/quote-gate.js';
import { resolveTarget } from './target.js';
import { gateError } from './gate-verdict.js';
import { instructionHash, parseInstruction } from './instruction.js';
import type { Previews } from './previews.js';
import { conflict, notFound } from '../errors/error-factories.js';
import { gateRefusal } from '../errors/gate-refusals.js';

/** What the wallet must sign to decide an approval (EIP-4361 statement and resources). */
export interface SigningRequest {
  statement: string;
  resources: string[];
}

export const approvalResource = (id: string) => `urn:gateway:approval:${id}`;
export const instructionResource = (hash: string) => `urn:gateway:instruction:${hash}`;

/** Pending and approved approvals read as expired once their time is up. */
export function effectiveState(a: Approval, now: number): ApprovalState {
  return approvalStateAt(a, now);
}

const approvalNotFound = (id: string) => notFound('approval_not_found', `No approval ${id} for this account.`);

/**
 * Interactive approvals: an exact, short-lived, one-time approval of one instruction, created by a
 * wallet session after a preview, decided only by a fresh wallet signature naming the approval
 * and its instruction hash, consumed atomically by exactly one submission.
 * States: pending → approved | rejected | expired; approved → consumed | expired.
 */
export class Approvals {
  constructor(
    private readonly deps: ExecutionDeps,
    private readonly previews: Previews,
    private readonly wallets: WalletSessions,
  ) {}

  signingRequest(a: Pick<Approval, 'id' | 'instructionHash'>, decision: 'approve' | 'reject'): SigningRequest {
    return {
      statement: `${decision === 'approve' ? 'Approve' : 'Reject'} execution ${a.id} of instruction ${a.instructionHash}`,
      resources: [approvalResource(a.id), instructionResource(a.instructionHash)],
    };
  }

  /** Answered once the approval and its audit entry are durable. */
  create(principal: Principal, input: unknown): Promise<Approval> {
    return this.deps.durability.together(() => this.createNow(principal, input));
  }

  private async createNow(principal: Principal, input: unknown): Promise<Approval> {
    const { deps } = this;
    if (principal.kind !== 'wallet')
      throw gateRefusal('POLICY_DENIED', 'Approvals are created by a wallet session.', { gate: 'authority', check: 'wallet_session' });
    const instruction = parseInstruction(input);
    resolveTarget(deps.protocols, deps.venues, instruction);
    const hash = instructionHash(instruction);
    const now = deps.clock.now();
    const quote = quoteVerdict(await this.previews.find(principal.account.id, instruction.referenceId), hash, now);
    if (quote.status === 'block') throw gateError(quote);
    const approval: Approval = {
      id: `apr_${randomUUID()}`,
      accountId: principal.account.id,
      wallet: principal.account.wallet,
      instructionHash: hash,
      instruction,
      state: 'pending',
      createdAt: now,
      expiresAt: now + APPROVAL_TTL_MS,
      decidedAt: null,
      consumedAt: null,
      executionId: null,
    };
    await deps.approvals.create(approval);
    await deps.audit.record(approval.accountId, 'approval_created', instruction.referenceId, {
      approvalId: approval.id,
      instructionHash: hash,
      expiresAt: approval.expiresAt,
    });
    deps.events.publish('approval:updated', approval);
    return approval;
  }

  async get(accountId: string, id: string): Promise<Approval> {
    const approval = await this.deps.approvals.get(id);
    if (!approval || approval.accountId !== accountId) throw approvalNotFound(id);
    return approval;
  }

  /** Answered once the decision, the spent sign-in nonce and the audit entry are durable. */
  decide(principal: Principal, id: string, decision: 'approve' | 'reject', message: string, signature: string): Promise<Approval> {
    return this.deps.durability.together(() => this.decideNow(principal, id, decision, message, signature));
  }

  private async decideNow(principal: Principal, id: string, decision: 'approve' | 'reject', message: string, signature: string): Promise<Approval> {
    const { deps } = this;
    if (principal.kind !== 'wallet')
      throw gateRefusal('POLICY_DENIED', 'Approvals are decided by a wallet session.', { gate: 'authority', check: 'wallet_session' });
    const approval = await this.get(principal.account.id, id);
    const now = deps.clock.now();
    const state = effectiveState(approval, now);
    if (state !== 'pending') {
      throw conflict('approval_not_pending', `The approval is ${state}.`, { details: { state }, nextAction: 'Create a new approval.' });
    }
    const denied = (reason: string) =>
      gateRefusal('POLICY_DENIED', reason, { gate: 'authority', check: 'wallet_reauthentication' }, 'Get a nonce and sign the signing request again.');
    let signed;
    try {
      signed = await this.wallets.verifySignedMessage(message, signature, FRESH_SIGNATURE_MS);
    } catch (e) {
      throw denied(e instanceof Error ? e.message : 'The wallet signature is not valid.');
    }
    const expected = this.signingRequest(approval, decision);
    if (signed.address.toLowerCase() !== approval.wallet.toLowerCase()) throw denied('The message was not signed by the account wallet.');
    if (signed.statement !== expected.statement || !expected.resources.every((r) => signed.resources.includes(r))) {
      throw denied('The signed message does not name this approval, its instruction hash and this decision.');
    }
    const decided = await deps.approvals.decide(id, decision === 'approve' ? 'approved' : 'rejected', now);
    if (!decided) throw conflict('approval_not_pending', 'The approval was decided meanwhile.');
    await deps.audit.record(decided.accountId, 'approval_decided', String(decided.instruction.referenceId ?? ''), {
      approvalId: id,
      decision: decided.state,
      instructionHash: decided.instructionHash,
    });
    deps.events.publish('approval:updated', decided);
    return decided;
  }
}
