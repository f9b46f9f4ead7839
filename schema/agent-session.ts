import type { AgentSession } from '../src/execution/execution-types.js';
import { activateAgentSession, agentSessionsOf, isActive, revokeAgentSession } from '../resolvers/execution/agent-sessions.js';
import { builder } from './builder.js';

export const AgentSessionRef = builder.objectRef<AgentSession>('AgentSession').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    apiKeyId: t.exposeString('apiKeyId'),
    protocols: t.exposeStringList('protocols'),
    actions: t.exposeStringList('actions', {
      description: 'GraphQL Strings, not an enum: action ids are protocol-registry data, and a hidden or newly configured id must still serialize.',
    }),
    assets: t.exposeStringList('assets'),
    maxOrderNotional: t.field({ type: 'Decimal', resolve: (s) => s.maxOrderNotional }),
    maxPeriodNotional: t.field({ type: 'Decimal', resolve: (s) => s.maxPeriodNotional }),
    periodSeconds: t.exposeInt('periodSeconds'),
    startsAt: t.field({ type: 'DateTime', resolve: (s) => s.startsAt }),
    expiresAt: t.field({ type: 'DateTime', resolve: (s) => s.expiresAt }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.revokedAt }),
    active: t.boolean({ resolve: (s, _a, ctx) => isActive(ctx, s) }),
  }),
});

builder.mutationFields((t) => ({
  activateAgentSession: t.field({
    type: AgentSessionRef,
    description: 'POST /api/v1/agent-sessions (wallet session)',
    authScopes: { walletSession: true },
    args: {
      apiKeyId: t.arg.string({ required: true }),
      protocols: t.arg.stringList({ required: true }),
      actions: t.arg.stringList({ required: true }),
      assets: t.arg.stringList({ required: true }),
      maxOrderNotional: t.arg.string({ required: true, description: 'USD per order, decimal string.' }),
      maxPeriodNotional: t.arg.string({ required: true, description: 'USD per period, decimal string.' }),
      periodSeconds: t.arg.int({ required: true }),
      startsAt: t.arg.string(),
      expiresAt: t.arg.string({ required: true }),
    },
    resolve: (_r, a, ctx) => activateAgentSession(ctx, a),
  }),
  revokeAgentSession: t.field({
    type: AgentSessionRef,
    description: 'DELETE /api/v1/agent-sessions/{sessionId}',
    authScopes: { authenticated: true },
    args: { sessionId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => revokeAgentSession(ctx, a.sessionId),
  }),
}));

builder.queryFields((t) => ({
  agentSessions: t.field({
    type: [AgentSessionRef],
    description: 'GET /api/v1/agent-sessions',
    authScopes: { authenticated: true },
    resolve: (_r, _a, ctx) => agentSessionsOf(ctx),
  }),
}));
