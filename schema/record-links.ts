import { approvalOf } from '../resolvers/execution/approvals.js';
import { executionOf } from '../resolvers/execution/executions.js';
import { GRAPH_ONLY } from '../src/http/rest/rest-schema.js';
import { ApprovalRef } from './approval.js';
import { builder } from './builder.js';
import { ExecutionRef } from './execution.js';

// Links between the caller's records (graph-only); each read is the caller's own, as the REST routes.
builder.objectFields(ExecutionRef, (t) => ({
  approval: t.field({
    type: ApprovalRef,
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'The approval this execution consumed (interactive clients); null under an agent session.',
    resolve: (e, _args, ctx) => (e.approvalId ? approvalOf(ctx, e.approvalId) : null),
  }),
}));

builder.objectFields(ApprovalRef, (t) => ({
  execution: t.field({
    type: ExecutionRef,
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'The execution that consumed this approval; null until one did.',
    resolve: (a, _args, ctx) => (a.executionId ? executionOf(ctx, a.executionId) : null),
  }),
}));
