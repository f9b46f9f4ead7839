import type { GatewayEventMap } from '../src/events/gateway-events.js';
import { authenticationError } from '../src/auth/auth-errors.js';
import type { GatewayContext } from '../src/http/context/gateway-context.js';
import { eventStream } from '../src/events/event-stream.js';
import { accountTopicEvents } from '../resolvers/execution/account-events.js';
import { GRAPH_ONLY } from '../src/http/rest/rest-schema.js';
import {
  approvalProducedAt,
  approvalSequence,
  currentRecord,
  executionProducedAt,
  executionSequence,
  type WithMissed,
} from '../resolvers/execution/record-sequences.js';
import { builder } from './builder.js';
import { ApprovalRef } from './approval.js';
import { ExecutionRef } from './execution.js';

/**
 * Events of one topic that belong to the caller's account (and to one id, when given). Scope-auth
 * guards a subscription's resolve step only, so the subscribe step authenticates itself.
 */
async function ofAccount<K extends 'approval:updated' | 'execution:updated'>(
  ctx: GatewayContext,
  topic: K,
  id: string | null | undefined,
  lastSequence?: number | null,
): Promise<AsyncIterable<GatewayEventMap[K][0]>> {
  const auth = await ctx.auth.resolve();
  if (auth.kind === 'anonymous') throw authenticationError(auth, undefined);
  const accountId = auth.account.id;
  const current = currentRecord(ctx, topic, accountId, id, lastSequence) as (() => Promise<GatewayEventMap[K][0][]>) | undefined;
  return eventStream(accountTopicEvents(ctx.services.events, topic), (event) => event.accountId === accountId && (!id || event.id === id), current);
}

builder.subscriptionFields((t) => ({
  approvalUpdated: t.field({
    type: ApprovalRef,
    description: "Every change of the caller's approvals (or of one).",
    authScopes: { authenticated: true },
    args: {
      approvalId: t.arg.string(),
      lastSequence: t.arg.int({
        description: 'On reconnecting (with approvalId): the last sequence seen; the current state comes first and says whether any were missed.',
      }),
    },
    subscribe: (_r, a, ctx) => ofAccount(ctx, 'approval:updated', a.approvalId, a.lastSequence),
    resolve: (payload) => payload,
  }),
  executionUpdated: t.field({
    type: ExecutionRef,
    description: "Every state change of the caller's executions (or of one).",
    authScopes: { authenticated: true },
    args: {
      executionId: t.arg.string(),
      lastSequence: t.arg.int({
        description: 'On reconnecting (with executionId): the last sequence seen; the current state comes first and says whether any were missed.',
      }),
    },
    subscribe: (_r, a, ctx) => ofAccount(ctx, 'execution:updated', a.executionId, a.lastSequence),
    resolve: (payload) => payload,
  }),
}));

const MISSED = 'On the state sent on subscribe with lastSequence: whether the record changed after it (then refetch); null otherwise.';

// Graph-only: the REST execution and approval routes keep their shapes.
builder.objectFields(ExecutionRef, (t) => ({
  sequence: t.int({
    extensions: GRAPH_ONLY,
    description:
      "This execution's update number, the same for every subscriber and replica: its count of state changes (its first event is 2, after accepted).",
    resolve: (e) => executionSequence(e),
  }),
  producedAt: t.field({
    type: 'DateTime',
    extensions: GRAPH_ONLY,
    description: 'When its latest change was produced.',
    resolve: (e) => executionProducedAt(e),
  }),
  missedEvents: t.boolean({ nullable: true, extensions: GRAPH_ONLY, description: MISSED, resolve: (e) => (e as WithMissed<typeof e>).missedEvents ?? null }),
}));

builder.objectFields(ApprovalRef, (t) => ({
  sequence: t.int({
    extensions: GRAPH_ONLY,
    description:
      "This approval's update number, the same for every subscriber and replica: 1 when requested, 2 once decided, 3 once consumed (a change without an event).",
    resolve: (a) => approvalSequence(a),
  }),
  producedAt: t.field({ type: 'DateTime', extensions: GRAPH_ONLY, description: 'When its latest change was produced.', resolve: (a) => approvalProducedAt(a) }),
  missedEvents: t.boolean({ nullable: true, extensions: GRAPH_ONLY, description: MISSED, resolve: (a) => (a as WithMissed<typeof a>).missedEvents ?? null }),
}));
