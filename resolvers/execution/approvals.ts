import { effectiveState } from '../../src/execution/approvals.js';
import type { Approval, ApprovalState } from '../../src/execution/execution-types.js';
import { invalidField } from '../../src/errors/error-factories.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { principalOf } from './principal.js';

export function createApproval(ctx: GatewayContext, args: Record<string, unknown>): Promise<Approval> {
  return principalOf(ctx).then((p) => ctx.services.execution.approvals.create(p, args));
}

export async function decideApproval(
  ctx: GatewayContext,
  args: { approvalId: string; decision: string; message: string; signature: string },
): Promise<Approval> {
  if (args.decision !== 'approve' && args.decision !== 'reject') throw invalidField('decision', 'must be approve or reject');
  return ctx.services.execution.approvals.decide(await principalOf(ctx), args.approvalId, args.decision, args.message, args.signature);
}

export async function approvalOf(ctx: GatewayContext, approvalId: string): Promise<Approval> {
  return ctx.services.execution.approvals.get((await principalOf(ctx)).account.id, approvalId);
}

/** Pending and approved approvals read as expired once their time is up. */
export function approvalState(ctx: GatewayContext, a: Approval): ApprovalState {
  return effectiveState(a, ctx.services.clock.now());
}

/** What the wallet signs to approve or reject, and the domain its EIP-4361 message must name. */
export function signingRequest(ctx: GatewayContext, a: Approval, decision: 'approve' | 'reject') {
  return { ...ctx.services.execution.approvals.signingRequest(a, decision), domain: ctx.services.execution.wallets.settings.domain };
}
