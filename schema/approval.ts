import type { Approval } from '../src/execution/execution-types.js';
import { approvalOf, approvalState, createApproval, decideApproval, signingRequest } from '../resolvers/execution/approvals.js';
import { builder } from './builder.js';
import { ApprovalStateEnum } from './closed-sets.js';
import { instructionArgs } from './execution-inputs.js';

const SigningRequestRef = builder.objectRef<{ statement: string; resources: string[]; domain: string }>('SigningRequest').implement({
  description: 'What to put in the EIP-4361 message that decides an approval (with a fresh nonce).',
  fields: (t) => ({ statement: t.exposeString('statement'), resources: t.exposeStringList('resources'), domain: t.exposeString('domain') }),
});

export const ApprovalRef = builder.objectRef<Approval>('Approval').implement({
  fields: (t) => ({
    approvalId: t.exposeString('id'),
    state: t.field({
      type: ApprovalStateEnum,
      description: 'pending, approved, rejected, expired or consumed.',
      resolve: (a, _args, ctx) => approvalState(ctx, a),
    }),
    instructionHash: t.exposeString('instructionHash'),
    instruction: t.field({ type: 'JSONObject', resolve: (a) => a.instruction }),
    wallet: t.exposeString('wallet'),
    createdAt: t.field({ type: 'DateTime', resolve: (a) => a.createdAt }),
    expiresAt: t.field({ type: 'DateTime', resolve: (a) => a.expiresAt }),
    decidedAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.decidedAt }),
    consumedAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.consumedAt }),
    executionId: t.exposeString('executionId', { nullable: true }),
    approveRequest: t.field({
      type: SigningRequestRef,
      resolve: (a, _args, ctx) => signingRequest(ctx, a, 'approve'),
    }),
    rejectRequest: t.field({
      type: SigningRequestRef,
      resolve: (a, _args, ctx) => signingRequest(ctx, a, 'reject'),
    }),
  }),
});

builder.mutationFields((t) => ({
  createApproval: t.field({
    type: ApprovalRef,
    description: 'POST /api/v1/execute/approvals (wallet session)',
    authScopes: { walletSession: true },
    args: instructionArgs(t.arg),
    resolve: (_r, a, ctx) => createApproval(ctx, a),
  }),
  decideApproval: t.field({
    type: ApprovalRef,
    description: 'PATCH /api/service/ai/approvals/{approvalId} (wallet session and a fresh signature)',
    authScopes: { walletSession: true },
    args: {
      approvalId: t.arg.string({ required: true }),
      decision: t.arg.string({ required: true, description: 'approve or reject' }),
      message: t.arg.string({ required: true, description: 'EIP-4361 message with a fresh nonce, the statement and resources of the signing request.' }),
      signature: t.arg.string({ required: true }),
    },
    resolve: (_r, a, ctx) => decideApproval(ctx, a),
  }),
}));

builder.queryFields((t) => ({
  approval: t.field({
    type: ApprovalRef,
    description: 'GET /api/v1/execute/approvals/{approvalId}',
    authScopes: { authenticated: true },
    args: { approvalId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => approvalOf(ctx, a.approvalId),
  }),
}));
