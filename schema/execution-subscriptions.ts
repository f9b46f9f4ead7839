import type { GatewayEventMap } from '../src/events/gateway-events.js';
import { authenticationError } from '../src/auth/auth-errors.js';
import type { GatewayContext } from '../src/http/gateway-context.js';
import { eventStream } from '../src/events/event-stream.js';
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
): Promise<AsyncIterable<GatewayEventMap[K][0]>> {
  const auth = await ctx.auth.resolve();
  if (auth.kind === 'anonymous') throw authenticationError(auth, undefined);
  const accountId = auth.account.id;
  const subscribe = ctx.services.events.subscribe as (topic: K) => AsyncIterable<GatewayEventMap[K][0]>;
  return eventStream(subscribe(topic), (event) => event.accountId === accountId && (!id || event.id === id));
}

builder.subscriptionFields((t) => ({
  approvalUpdated: t.field({
    type: ApprovalRef,
    description: "Every change of the caller's approvals (or of one).",
    authScopes: { authenticated: true },
    args: { approvalId: t.arg.string() },
    subscribe: (_r, a, ctx) => ofAccount(ctx, 'approval:updated', a.approvalId),
    resolve: (payload) => payload,
  }),
  executionUpdated: t.field({
    type: ExecutionRef,
    description: "Every state change of the caller's executions (or of one).",
    authScopes: { authenticated: true },
    args: { executionId: t.arg.string() },
    subscribe: (_r, a, ctx) => ofAccount(ctx, 'execution:updated', a.executionId),
    resolve: (payload) => payload,
  }),
}));
