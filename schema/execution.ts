import type { Execution, Fill, RoutedOrderRef } from '../src/execution/execution-types.js';
import { EXECUTION_STATES } from '../src/execution/execution-types.js';
import { cancelExecution, execute, executeScopes, executionByReference, executionOf } from '../resolvers/execution/executions.js';
import { builder } from './builder.js';
import { PrincipalKindEnum } from './closed-sets.js';
import { instructionArgs } from './execution-inputs.js';

/** Spec: an execution whose outcome is not yet known tells the client how to learn it. */
const UNKNOWN_NEXT_ACTION =
  'reconcile by referenceId: GET /api/v1/execute/references/{referenceId} answers the final state once the reconciler has settled it (within seconds of the store or venue answering again); do not resubmit under a new referenceId';

export const ExecutionStateEnum = builder.enumType('ExecutionState', { values: EXECUTION_STATES });

const FillRef = builder.objectRef<Fill>('Fill').implement({
  fields: (t) => ({
    price: t.field({ type: 'Decimal', resolve: (f) => f.price }),
    filledAmount: t.field({ type: 'Decimal', resolve: (f) => f.filledAmount }),
    requestedAmount: t.field({ type: 'Decimal', resolve: (f) => f.requestedAmount }),
    notional: t.field({ type: 'Decimal', resolve: (f) => f.notional }),
    fee: t.field({ type: 'Decimal', resolve: (f) => f.fee }),
    feeToken: t.exposeString('feeToken'),
  }),
});

const RoutedOrderRefType = builder.objectRef<RoutedOrderRef>('RoutedOrder').implement({
  description: 'An order routed to a real venue (Hyperliquid, Alpaca): the ids it goes by there, and whether part of it still rests.',
  fields: (t) => ({
    clientOrderId: t.exposeString('clientOrderId', {
      description: 'The client order id sent to the venue, derived from the account and the referenceId (the same on every retry).',
    }),
    venueOrderId: t.exposeString('venueOrderId', { nullable: true, description: "The venue's own id of the order, once it answered." }),
    resting: t.exposeBoolean('resting', {
      description: 'Whether part of the order still rests at the venue (cancel it with DELETE /api/v1/execute/executions/{executionId}).',
    }),
  }),
});

const StateChangeRef = builder.objectRef<Execution['history'][number]>('ExecutionStateChange').implement({
  fields: (t) => ({
    state: t.field({ type: ExecutionStateEnum, resolve: (h) => h.state }),
    at: t.field({ type: 'DateTime', resolve: (h) => h.at }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

export const ExecutionRef = builder.objectRef<Execution & { replayed?: boolean }>('Execution').implement({
  fields: (t) => ({
    executionId: t.exposeString('id'),
    referenceId: t.exposeString('referenceId'),
    instructionHash: t.exposeString('instructionHash'),
    protocol: t.exposeString('protocol'),
    action: t.exposeString('action', {
      description: 'A GraphQL String, not an enum: action ids are protocol-registry data, and a hidden or newly configured id must still serialize.',
    }),
    state: t.field({ type: ExecutionStateEnum, resolve: (e) => e.state }),
    principalKind: t.field({ type: PrincipalKindEnum, resolve: (e) => e.principal.kind }),
    approvalId: t.exposeString('approvalId', { nullable: true }),
    agentSessionId: t.exposeString('agentSessionId', { nullable: true }),
    fill: t.field({ type: FillRef, nullable: true, resolve: (e) => e.fill }),
    order: t.field({
      type: RoutedOrderRefType,
      nullable: true,
      description: 'Set when the order was routed to a real venue; null on the paper venues.',
      resolve: (e) => e.order ?? null,
    }),
    reason: t.exposeString('reason', { nullable: true }),
    nextAction: t.string({
      nullable: true,
      description: 'What the client should do next: set while the outcome is `unknown` (reconcile by referenceId), null otherwise.',
      resolve: (e) => (e.state === 'unknown' ? UNKNOWN_NEXT_ACTION : null),
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (e) => e.updatedAt }),
    history: t.field({ type: [StateChangeRef], resolve: (e) => e.history }),
    replayed: t.boolean({ resolve: (e) => e.replayed ?? false }),
  }),
});

builder.mutationFields((t) => ({
  execute: t.field({
    type: ExecutionRef,
    description: 'POST /api/v1/execute (scope execute:live)',
    authScopes: (_r, _a, ctx) => executeScopes(ctx),
    args: { ...instructionArgs(t.arg), approvalId: t.arg.string({ description: 'The one-time approval (interactive clients).' }) },
    resolve: (_r, a, ctx) => execute(ctx, a),
  }),
  cancelExecution: t.field({
    type: ExecutionRef,
    description: 'DELETE /api/v1/execute/executions/{executionId} (scope execute:live): cancels the rest of an order resting at its venue.',
    authScopes: (_r, _a, ctx) => executeScopes(ctx),
    args: { executionId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => cancelExecution(ctx, a.executionId),
  }),
}));

builder.queryFields((t) => ({
  execution: t.field({
    type: ExecutionRef,
    description: 'GET /api/v1/execute/executions/{executionId}',
    authScopes: { authenticated: true },
    args: { executionId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => executionOf(ctx, a.executionId),
  }),
  executionByReference: t.field({
    type: ExecutionRef,
    description: 'GET /api/v1/execute/references/{referenceId}',
    authScopes: { authenticated: true },
    args: { referenceId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => executionByReference(ctx, a.referenceId),
  }),
}));
