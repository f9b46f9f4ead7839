import type { ArgBuilder } from '@pothos/core';
import { approvalListEnvelope, executionListEnvelope, type ApprovalList, type ExecutionList } from '../resolvers/execution/account-records.js';
import { ApprovalRef } from './approval.js';
import { builder, type GatewaySchemaTypes } from './builder.js';
import { envelopeType } from './envelope.js';
import { ExecutionRef } from './execution.js';

const ExecutionListRef = builder.objectRef<ExecutionList>('ExecutionList').implement({
  fields: (t) => ({
    executions: t.field({ type: [ExecutionRef], resolve: (l) => l.executions }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the next page; null on the last page.' }),
  }),
});

const ApprovalListRef = builder.objectRef<ApprovalList>('ApprovalList').implement({
  fields: (t) => ({
    approvals: t.field({ type: [ApprovalRef], resolve: (l) => l.approvals }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the next page; null on the last page.' }),
  }),
});

const ExecutionListEnvelope = envelopeType('ExecutionListEnvelope', ExecutionListRef, { description: "The account's executions, newest first." });
const ApprovalListEnvelope = envelopeType('ApprovalListEnvelope', ApprovalListRef, { description: "The account's approvals, newest first." });

const listArgs = (arg: ArgBuilder<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>>) => ({
  limit: arg.int(),
  cursor: arg.string(),
  state: arg.string(),
  protocol: arg.string(),
  referenceId: arg.string({ description: 'A referenceId prefix.' }),
  from: arg.string(),
  to: arg.string(),
});

builder.queryFields((t) => ({
  executions: t.field({
    type: ExecutionListEnvelope,
    description: 'GET /api/v1/execute/executions',
    authScopes: { 'data:read': true },
    args: listArgs(t.arg),
    resolve: (_r, a, ctx) => executionListEnvelope(ctx, a),
  }),
  approvals: t.field({
    type: ApprovalListEnvelope,
    description: 'GET /api/v1/execute/approvals',
    authScopes: { 'data:read': true },
    args: listArgs(t.arg),
    resolve: (_r, a, ctx) => approvalListEnvelope(ctx, a),
  }),
}));
