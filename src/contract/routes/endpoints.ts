import type { HttpMethod } from '../route-spec.js';

/** What serves an endpoint outside the REST contract. */
export type EndpointKind = 'health' | 'readiness' | 'metrics' | 'graphql' | 'mcp' | 'dashboard';

/**
 * A route the gateway serves beside the REST contract: internal (operations) or first-party
 * (GraphQL, agents, the dashboard). In neither contract document (DESIGN: Routes beyond the
 * contract); the server routes by these rows as by the contract's.
 */
export interface EndpointSpec {
  operationId: string;
  /** Methods served; HEAD is served wherever GET is. */
  methods: readonly HttpMethod[];
  path: string;
  /** Also every path below it (`/dashboard/assets/…`). */
  subtree?: boolean;
  visibility: 'internal' | 'first_party';
  serves: EndpointKind;
  summary: string;
  /** Counted against the caller's rate limit (probes and scrapes never are). */
  rateLimited: boolean;
}

/** Every route outside the contract documents, once. */
export const ENDPOINTS: readonly EndpointSpec[] = [
  {
    operationId: 'health',
    methods: ['GET'],
    path: '/healthz',
    visibility: 'internal',
    serves: 'health',
    summary: 'Liveness: 200 while the process serves.',
    rateLimited: false,
  },
  {
    operationId: 'readiness',
    methods: ['GET'],
    path: '/readyz',
    visibility: 'internal',
    serves: 'readiness',
    summary: 'Readiness: 200 when started, not draining, with its stores and ingestion live; 503 with the reasons otherwise.',
    rateLimited: false,
  },
  {
    operationId: 'metrics',
    methods: ['GET'],
    path: '/metrics',
    visibility: 'internal',
    serves: 'metrics',
    summary: 'Prometheus metrics (GATEWAY_METRICS_TOKEN protects them).',
    rateLimited: false,
  },
  {
    operationId: 'graphql',
    methods: ['GET', 'POST'],
    path: '/graphql',
    visibility: 'first_party',
    serves: 'graphql',
    summary: 'The GraphQL schema over HTTP and SSE (graphql-ws upgrades on the same path).',
    rateLimited: true,
  },
  {
    operationId: 'mcp',
    methods: ['GET', 'POST', 'DELETE'],
    path: '/mcp',
    visibility: 'first_party',
    serves: 'mcp',
    summary: "Model Context Protocol tools for agents: the caller's workflow nodes, each call a REST request made in-process.",
    rateLimited: false,
  },
  {
    operationId: 'dashboard',
    methods: ['GET'],
    path: '/dashboard',
    subtree: true,
    visibility: 'first_party',
    serves: 'dashboard',
    summary: 'The live dashboard and its assets.',
    rateLimited: false,
  },
];

/** Other names of contract paths (spec: "also referred to as /openapi.public.json"). */
export const PATH_ALIASES: Readonly<Record<string, string>> = {
  '/openapi.public.json': '/api/v1/public/openapi.public.json',
};
