import { MAX_AGE_MS } from '../../domain/freshness.js';
import type { RouteSpec } from '../route-spec.js';
import { dataRoute } from './data.js';
import { executionRoute as accountRoute } from './execution.js';

/** What agents read to learn what they may do, and the agent sessions that bound what they do. */
export const AGENT_ROUTES: readonly RouteSpec[] = [
  dataRoute({
    operationId: 'getCapabilities',
    path: '/api/v1/capabilities',
    field: 'Query.capabilities',
    scopes: [],
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Live source of truth: per protocol and action, what this key may do now and which gates block it.',
  }),
  dataRoute({
    operationId: 'getWorkflowNodes',
    path: '/api/v1/workflow-nodes',
    field: 'Query.workflowNodes',
    scopes: [],
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Live source of truth: workflow nodes with input and output JSON Schemas.',
  }),
  accountRoute({
    operationId: 'activateAgentSession',
    requestSchema: 'AgentSessionRequest',
    method: 'POST',
    path: '/api/v1/agent-sessions',
    field: 'Mutation.activateAgentSession',
    scopes: [],
    idempotent: false,
    security: 'wallet_session',
    summary: 'Activates a bounded agent session for one API key (wallet session).',
  }),
  accountRoute({
    operationId: 'listAgentSessions',
    method: 'GET',
    path: '/api/v1/agent-sessions',
    field: 'Query.agentSessions',
    scopes: [],
    idempotent: false,
    summary: "The account's agent sessions.",
  }),
  accountRoute({
    operationId: 'revokeAgentSession',
    method: 'DELETE',
    path: '/api/v1/agent-sessions/{sessionId}',
    field: 'Mutation.revokeAgentSession',
    scopes: [],
    idempotent: true,
    pathParams: { sessionId: 'An agent session id (ags_...).' },
    summary: 'Revokes an agent session; effective on the next request.',
    errors: { 404: { description: 'No such session for this account.', code: 'agent_session_not_found' } },
  }),
];
