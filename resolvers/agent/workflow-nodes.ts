import { z } from 'zod';
import type { AuthResult } from '../../src/auth/authenticator.js';
import { dereference } from '../../src/contract/contract-openapi.js';
import { ROUTES, type RouteSpec } from '../../src/contract/route-registry.js';
import { freshnessOf } from '../../src/domain/freshness.js';
import type { GatewayContext } from '../../schema/context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { TRIGGERS } from './trigger-schemas.js';

export interface WorkflowNode {
  id: string;
  kind: 'trigger' | 'data';
  title: string;
  description: string;
  route: { method: string; path: string } | null;
  subscription: string | null;
  requiredScopes: string[];
  available: boolean;
  blockedBy: { gate: string; reason: string }[];
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

function dataNode(ctx: GatewayContext, route: RouteSpec, auth: AuthResult): WorkflowNode {
  const doc = ctx.services.contract.fullDocument();
  const success = doc.paths[route.path][route.method.toLowerCase()].responses['200'].content['application/json'].schema;
  const missing = route.scopes.filter((s) => auth.kind !== 'key' || !auth.scopes.has(s as never));
  return {
    id: `data.${route.operationId}`,
    kind: 'data',
    title: route.summary,
    description: `${route.method} ${route.path}${route.maxAgeMs ? `; data older than ${route.maxAgeMs} ms is marked stale` : ''}.`,
    route: { method: route.method, path: route.path },
    subscription: null,
    requiredScopes: [...route.scopes],
    available: missing.length === 0,
    blockedBy: missing.map((s) => ({ gate: 'scope', reason: `This key lacks the ${s} scope.` })),
    inputSchema: inputOf(route),
    outputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...dereference(doc, success) },
  };
}

/** Workflow nodes, computed per request from the route registry and this key's scopes. */
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
  const reads = ROUTES.filter((r) => r.method === 'GET' && !NOT_NODES.has(r.operationId)).map((r) => dataNode(ctx, r, auth));
  return publicEnvelope(ctx, { nodes: [...triggers, ...reads] }, freshnessOf(now, 'healthy', Number.POSITIVE_INFINITY, now), now);
}
