import type { TokenAmount } from '../src/execution/execution-types.js';
import type { GateVerdict } from '../src/execution/gate-verdict.js';
import type { StoredPreview } from '../src/execution/stored-preview.js';
import type { Quote } from '../src/execution/venues/execution-venue.js';
import { previewExecution } from '../resolvers/execution/previews.js';
import { builder } from './builder.js';
import { GateCodeEnum, GateNameEnum, GateStatusEnum, OrderSideEnum } from './closed-sets.js';
import { instructionArgs } from './execution-inputs.js';

const TokenAmountRef = builder.objectRef<TokenAmount>('TokenAmount').implement({
  fields: (t) => ({ token: t.exposeString('token'), amount: t.field({ type: 'Decimal', resolve: (x) => x.amount }) }),
});

const QuoteRef = builder.objectRef<Quote>('Quote').implement({
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    side: t.field({ type: OrderSideEnum, nullable: true, resolve: (q) => q.side }),
    price: t.field({ type: 'Decimal', nullable: true, resolve: (q) => q.price }),
    amount: t.field({ type: 'Decimal', resolve: (q) => q.amount }),
    notionalUsd: t.field({ type: 'Decimal', resolve: (q) => q.notionalUsd }),
    fee: t.field({ type: 'Decimal', resolve: (q) => q.fee }),
    feeToken: t.exposeString('feeToken'),
    amountOut: t.field({ type: 'Decimal', nullable: true, resolve: (q) => q.amountOut }),
    minAmountOut: t.field({ type: 'Decimal', nullable: true, resolve: (q) => q.minAmountOut }),
    expectedFilledAmount: t.field({
      type: 'Decimal',
      description: "What the venue's fill would take now (same simulation as the submission); a limit that does not cross fills 0.",
      resolve: (q) => q.expectedFill?.filledAmount ?? q.amount,
    }),
    expectedFillState: t.string({
      description:
        'filled, partially_filled, open (a limit that rests in full at a real venue: it fills nothing now) or rejected (an immediate-or-cancel limit that would be cancelled, a post-only limit that would cross).',
      resolve: (q) => q.expectedFill?.state ?? 'filled',
    }),
    balanceChanges: t.field({
      type: [TokenAmountRef],
      description: 'Signed ledger changes on a full fill.',
      resolve: (q) => Object.entries(q.changes).map(([token, amount]) => ({ token, amount })),
    }),
  }),
});

const GateVerdictRef = builder.objectRef<GateVerdict>('GateVerdict').implement({
  fields: (t) => ({
    gate: t.field({ type: GateNameEnum, description: 'feature_flag, certification, venue, authority, quote, balance or idempotency.', resolve: (v) => v.gate }),
    status: t.field({ type: GateStatusEnum, description: 'pass, block, or not_evaluated when an earlier gate blocks.', resolve: (v) => v.status }),
    code: t.field({ type: GateCodeEnum, nullable: true, description: 'The error a submission would get now.', resolve: (v) => v.code }),
    reason: t.exposeString('reason'),
  }),
});

const PreviewRef = builder.objectRef<StoredPreview & { replayed: boolean }>('ExecutionPreview').implement({
  fields: (t) => ({
    previewId: t.exposeString('id'),
    referenceId: t.exposeString('referenceId'),
    instructionHash: t.exposeString('instructionHash', { description: 'SHA-256 of the RFC 8785 canonical request without approvalId.' }),
    instruction: t.field({ type: 'JSONObject', resolve: (p) => p.instruction as Record<string, unknown> }),
    quote: t.field({ type: QuoteRef, nullable: true, resolve: (p) => p.quote }),
    gates: t.field({ type: [GateVerdictRef], resolve: (p) => p.gates }),
    executable: t.exposeBoolean('executable'),
    createdAt: t.field({ type: 'DateTime', resolve: (p) => p.createdAt }),
    expiresAt: t.field({ type: 'DateTime', resolve: (p) => p.expiresAt }),
    replayed: t.exposeBoolean('replayed'),
  }),
});

builder.mutationFields((t) => ({
  previewExecution: t.field({
    type: PreviewRef,
    description: 'POST /api/v1/execute/preview (scope execute:preview)',
    authScopes: { 'execute:preview': true },
    args: instructionArgs(t.arg),
    resolve: (_r, a, ctx) => previewExecution(ctx, a),
  }),
}));
