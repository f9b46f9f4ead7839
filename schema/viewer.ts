import type { ArgBuilder } from '@pothos/core';
import { portfolioEnvelope } from '../resolvers/data/portfolio.js';
import { positionsEnvelope } from '../resolvers/data/positions.js';
import { CONNECTION_SIZE } from '../resolvers/graph/connection-page.js';
import { executionAuditLoader } from '../resolvers/graph/viewer-audit.js';
import { viewerAgentSessions, viewerApprovals, viewerAuditLog, viewerExecutions, viewerOf, type Viewer } from '../resolvers/graph/viewer.js';
import { GRAPH_ONLY } from '../src/http/rest/rest-schema.js';
import { PortfolioEnvelope } from './account-data.js';
import { AgentSessionRef } from './agent-session.js';
import { ApprovalRef } from './approval.js';
import { AuditEntryRef } from './audit-log.js';
import { builder, type GatewaySchemaTypes } from './builder.js';
import { ApprovalStateEnum } from './closed-sets.js';
import { ExecutionRef, ExecutionStateEnum } from './execution.js';
import { PositionsEnvelope } from './positions.js';

// The caller's account as a graph (graph-only: no REST route selects it). The growing lists are
// Relay connections, newest first, paged forward with `first`/`after` (opaque signed cursors).

const CredentialKindEnum = builder.enumType('CredentialKind', {
  description: 'How the caller authenticated: an API key or a wallet session (sign-in with Ethereum).',
  values: ['api_key', 'wallet_session'] as const,
});

const ExecutionConnection = builder.connectionObject({ type: ExecutionRef, name: 'ExecutionConnection' }, { name: 'ExecutionEdge' });
const ApprovalConnection = builder.connectionObject({ type: ApprovalRef, name: 'ApprovalConnection' }, { name: 'ApprovalEdge' });
const AgentSessionConnection = builder.connectionObject({ type: AgentSessionRef, name: 'AgentSessionConnection' }, { name: 'AgentSessionEdge' });
const AuditEntryConnection = builder.connectionObject({ type: AuditEntryRef, name: 'AuditEntryConnection' }, { name: 'AuditEntryEdge' });

// Time bounds are strings checked by the resolvers, so a bad one is a 400 invalid_list_query naming it (as on REST).
const TIME_BOUND = (what: string) => `${what}: an RFC 3339 date-time such as 2026-11-22T10:00:00Z.`;

const pageArgs = (arg: ArgBuilder<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>>) => ({
  first: arg.int({ description: `Records per page, ${CONNECTION_SIZE.min} to ${CONNECTION_SIZE.max} (default ${CONNECTION_SIZE.default}).` }),
  after: arg.string({ description: 'The endCursor (or any edge cursor) of the previous page; omit for the newest records.' }),
  protocol: arg.string({ description: 'Only records of this protocol (a protocol id such as paper-perps).' }),
  from: arg.string({ description: TIME_BOUND('Created at or after') }),
  to: arg.string({ description: TIME_BOUND('Created at or before') }),
});

const referenceArg = (arg: ArgBuilder<PothosSchemaTypes.ExtendDefaultTypes<GatewaySchemaTypes>>) => ({
  referenceId: arg.string({ description: 'Only records whose referenceId starts with this.' }),
});

const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  description: "The caller's account, as its API key or wallet session names it. Fields guarded by a scope are null (with an error) without it.",
  fields: (t) => ({
    accountId: t.exposeString('accountId'),
    wallet: t.exposeString('wallet'),
    credential: t.field({ type: CredentialKindEnum, resolve: (v) => v.credential }),
    scopes: t.exposeStringList('scopes', { description: 'The scopes of this credential (a wallet session has all).' }),
    portfolio: t.field({
      type: PortfolioEnvelope,
      nullable: true,
      description: 'As GET /api/v1/data/portfolio (scope data:read).',
      authScopes: { 'data:read': true },
      resolve: (_v, _a, ctx) => portfolioEnvelope(ctx),
    }),
    positions: t.field({
      type: PositionsEnvelope,
      nullable: true,
      description: 'As GET /api/v1/data/positions (scope data:read).',
      authScopes: { 'data:read': true },
      resolve: (_v, _a, ctx) => positionsEnvelope(ctx),
    }),
    executions: t.field({
      type: ExecutionConnection,
      nullable: true,
      description: 'The executions, newest first (scope data:read, as GET /api/v1/execute/executions).',
      authScopes: { 'data:read': true },
      args: { ...pageArgs(t.arg), ...referenceArg(t.arg), state: t.arg({ type: ExecutionStateEnum, description: 'Only executions in this state.' }) },
      resolve: (v, a, ctx) => viewerExecutions(ctx, v, a),
    }),
    approvals: t.field({
      type: ApprovalConnection,
      nullable: true,
      description: 'The approvals, newest first, in their state now (scope data:read, as GET /api/v1/execute/approvals).',
      authScopes: { 'data:read': true },
      args: { ...pageArgs(t.arg), ...referenceArg(t.arg), state: t.arg({ type: ApprovalStateEnum, description: 'Only approvals in this state now.' }) },
      resolve: (v, a, ctx) => viewerApprovals(ctx, v, a),
    }),
    agentSessions: t.field({
      type: AgentSessionConnection,
      description: 'The agent sessions, newest first (as GET /api/v1/agent-sessions).',
      args: {
        ...pageArgs(t.arg),
        active: t.arg.boolean({ description: 'Only sessions in force now (true) or not (false: revoked, expired or not started).' }),
      },
      resolve: (v, a, ctx) => viewerAgentSessions(ctx, v, a),
    }),
    auditLog: t.field({
      type: AuditEntryConnection,
      description: "The account's audit entries, newest first (as GET /api/v1/audit); from/to bound the time each was written.",
      args: {
        first: t.arg.int({ description: `Entries per page, ${CONNECTION_SIZE.min} to ${CONNECTION_SIZE.max} (default ${CONNECTION_SIZE.default}).` }),
        after: t.arg.string({ description: 'The endCursor (or any edge cursor) of the previous page; omit for the newest entries.' }),
        type: t.arg.string({ description: 'Only entries of this type (preview, approval_created, execution…).' }),
        referenceId: t.arg.string({ description: 'Only entries of this referenceId.' }),
        from: t.arg.string({ description: TIME_BOUND('Written at or after') }),
        to: t.arg.string({ description: TIME_BOUND('Written at or before') }),
      },
      resolve: (v, a, ctx) => viewerAuditLog(ctx, v, a),
    }),
  }),
});

builder.objectFields(ExecutionRef, (t) => ({
  auditEntries: t.field({
    type: [AuditEntryRef],
    extensions: GRAPH_ONLY,
    description: "The audit entries of this execution, oldest first: its approval's creation and decision, and each state it reached.",
    resolve: (e, _a, ctx) => executionAuditLoader(ctx).load(e),
  }),
}));

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    nullable: true,
    extensions: GRAPH_ONLY,
    description: "The caller's account (API key or wallet session); null with the REST routes' 401 error for an unauthenticated caller.",
    authScopes: { authenticated: true },
    resolve: (_r, _a, ctx) => viewerOf(ctx),
  }),
}));
