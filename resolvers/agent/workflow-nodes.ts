import { z } from 'zod';
import type { AuthResult } from '../../src/auth/authenticator.js';
import { dereference, type OpenApiDocument } from '../../src/contract/contract-openapi.js';
import { ROUTES, type RouteSpec } from '../../src/contract/route-registry.js';
import { freshnessOf } from '../../src/domain/freshness.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { TRIGGERS } from './trigger-schemas.js';

/** What blocks a workflow step besides the execution gates. */
export const STEP_BLOCKS = ['scope', 'wallet_session', 'agent_session'] as const;
type StepBlock = { gate: (typeof STEP_BLOCKS)[number]; reason: string };

export const WORKFLOW_NODE_KINDS = ['trigger', 'data', 'preview', 'approval', 'execute'] as const;

export interface WorkflowNode {
  id: string;
  kind: (typeof WORKFLOW_NODE_KINDS)[number];
  title: string;
  description: string;
  route: { method: string; path: string } | null;
  subscription: string | null;
  requiredScopes: string[];
  available: boolean;
  blockedBy: StepBlock[];
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
}

export interface WorkflowNodes {
  nodes: WorkflowNode[];
}

/** Routes that describe the API itself are not workflow steps. */
const NOT_NODES = new Set(['getPublicOpenApi', 'getContractOpenApi', 'getCapabilities', 'getWorkflowNodes']);

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema) as Record<string, unknown>;
}

/** Input of a read: its path and query parameters, as the registry declares them. */
function inputOf(route: RouteSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, description] of Object.entries(route.pathParams ?? {})) {
    properties[name] = { type: 'string', minLength: 1, description };
    required.push(name);
  }
  for (const [name, spec] of Object.entries(route.queryParams ?? {})) {
    const { description, ...rules } = spec;
    properties[name] = { ...rules, description };
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties, required, additionalProperties: false };
}

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** Input of a step with a body: its path parameters and the request body's fields. */
function stepInputOf(doc: OpenApiDocument, route: RouteSpec): Record<string, unknown> {
  const params = inputOf(route) as { properties: Record<string, unknown>; required: string[] };
  const body = dereference(doc, doc.paths[route.path][route.method.toLowerCase()].requestBody?.content?.['application/json']?.schema ?? {});
  return {
    $schema: DIALECT,
    type: 'object',
    properties: { ...params.properties, ...(body.properties ?? {}) },
    required: [...new Set([...params.required, ...(body.required ?? [])])],
    additionalProperties: false,
  };
}

/** Why this caller cannot take a route's step now: missing scopes, or the wrong kind of principal. */
async function blocksFor(ctx: GatewayContext, route: RouteSpec, auth: AuthResult): Promise<StepBlock[]> {
  const blocks: StepBlock[] = route.scopes
    .filter((s) => auth.kind === 'anonymous' || !auth.scopes.has(s as never))
    .map((s) => ({ gate: 'scope', reason: `This key lacks the ${s} scope.` }));
  if (route.security === 'wallet_session' && auth.kind !== 'wallet') {
    blocks.push({ gate: 'wallet_session', reason: 'Needs a wallet session: sign in with Ethereum.' });
  }
  if (route.workflow === 'execute' && auth.kind === 'key') {
    const sessions = await ctx.services.execution.agentSessions.activeFor(auth.account.id, auth.key.id, ctx.services.clock.now());
    if (sessions.length === 0) blocks.push({ gate: 'agent_session', reason: 'No active agent session for this key.' });
  }
  return blocks;
}

async function routeNode(ctx: GatewayContext, route: RouteSpec, auth: AuthResult): Promise<WorkflowNode> {
  const doc = ctx.services.contract.fullDocument();
  const operation = doc.paths[route.path][route.method.toLowerCase()];
  const success = operation.responses['200'].content['application/json'].schema;
  const blockedBy = await blocksFor(ctx, route, auth);
  const kind = route.workflow ?? 'data';
  return {
    id: `${kind}.${route.operationId}`,
    kind,
    title: route.summary,
    description: `${route.method} ${route.path}${route.maxAgeMs ? `; data older than ${route.maxAgeMs} ms is marked stale` : ''}.`,
    route: { method: route.method, path: route.path },
    subscription: null,
    requiredScopes: [...route.scopes],
    available: blockedBy.length === 0,
    blockedBy,
    inputSchema: route.workflow ? stepInputOf(doc, route) : inputOf(route),
    outputSchema: { $schema: DIALECT, ...dereference(doc, success) },
  };
}

/**
 * Workflow nodes, computed per request: triggers, every data read, and the preview, approval and
 * execute steps, from the route registry, the full contract's schemas and this caller's authority.
 */
export async function workflowNodesEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<WorkflowNodes>> {
  const auth = await ctx.auth.resolve();
  const now = ctx.services.clock.now();
  const triggers: WorkflowNode[] = TRIGGERS.map((t) => ({
    id: t.id,
    kind: 'trigger',
    title: t.title,
    description: t.description,
    route: null,
    subscription: t.subscription,
    requiredScopes: [],
    available: true,
    blockedBy: [],
    inputSchema: jsonSchema(t.input),
    outputSchema: jsonSchema(t.output),
  }));
  const steps = ROUTES.filter((r) => r.visibility !== 'internal' && !NOT_NODES.has(r.operationId) && (r.workflow !== undefined || r.method === 'GET'));
  const nodes = await Promise.all(steps.map((r) => routeNode(ctx, r, auth)));
  return publicEnvelope({ nodes: [...triggers, ...nodes] }, freshnessOf(now, 'healthy', Number.POSITIVE_INFINITY, now), now);
}
