import { MAX_AGE_MS } from '../domain/freshness.js';

/** Spec, Versioning: the contract registry schema version. */
export const CONTRACT_SCHEMA_VERSION = 'service.api-contracts.v1';

export type RouteVisibility = 'public' | 'authenticated' | 'internal' | 'canary' | 'hidden';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface QueryParamSpec {
  type: 'string' | 'integer';
  format?: 'date-time';
  enum?: readonly string[];
  default?: string | number;
  minimum?: number;
  maximum?: number;
  description: string;
}

/** An error status a route declares beyond the shared 400/401/403/409/429. */
export interface RouteErrorSpec {
  description: string;
  code?: string;
  /** The spec answers this status with an envelope, not an error response. */
  envelope?: boolean;
}

export interface RouteSpec {
  operationId: string;
  method: HttpMethod;
  /** Contract path, with `{name}` parameters. */
  path: string;
  /** The root field Sofa derives the route from. */
  field: `Query.${string}` | `Mutation.${string}`;
  visibility: RouteVisibility;
  scopes: readonly string[];
  /** Freshness max age of the data served, or null where an as-of time is not required. */
  maxAgeMs: number | null;
  idempotent: boolean;
  summary: string;
  pathParams?: Record<string, string>;
  queryParams?: Record<string, QueryParamSpec>;
  errors?: Partial<Record<number, RouteErrorSpec>>;
  /** Error code for malformed input on this route (default `invalid_request`). */
  invalidInputCode?: string;
  /** `etag`: a JSON mirror answering If-None-Match with 304. */
  caching: 'freshness' | 'etag' | 'none';
  /** Who may call: a Bearer API key (default outside the public plane), a wallet session, anyone, or the operator. */
  security?: 'bearer' | 'wallet_session' | 'none' | 'operator';
  /** The execution step this route is, for workflow nodes. */
  workflow?: 'preview' | 'approval' | 'execute';
}

export const HISTORY_RESOLUTIONS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
export const HISTORY_LIMIT = { min: 1, max: 366, default: 366 } as const;

const publicRoute = (r: Omit<RouteSpec, 'visibility' | 'scopes' | 'idempotent' | 'method'>): RouteSpec => ({
  method: 'GET',
  visibility: 'public',
  scopes: [],
  idempotent: false,
  ...r,
});

const assetParam = { asset: 'A market id (BTC-PERP) or an asset symbol (BTC).' };

/** The public routes of the contract. Sofa routes, both OpenAPI documents and tests derive from the registry. */
export const PUBLIC_ROUTES: readonly RouteSpec[] = [
  publicRoute({
    operationId: 'listPublicMarkets',
    path: '/api/v1/public/markets',
    field: 'Query.markets',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'List public markets with their latest snapshot.',
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicMarket',
    path: '/api/v1/public/markets/{asset}',
    field: 'Query.market',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'One market summary, by market id or asset symbol.',
    pathParams: assetParam,
    errors: { 404: { description: 'Unknown market: a stale not-found envelope.', envelope: true } },
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicMarketHistory',
    path: '/api/v1/public/markets/{asset}/history',
    field: 'Query.marketHistory',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Stored candle observations of a market; never fabricated.',
    pathParams: assetParam,
    queryParams: {
      resolution: { type: 'string', enum: HISTORY_RESOLUTIONS, default: '1d', description: 'Candle interval.' },
      from: { type: 'string', format: 'date-time', description: 'Inclusive lower bound (RFC 3339).' },
      to: { type: 'string', format: 'date-time', description: 'Inclusive upper bound (RFC 3339); defaults to the request time.' },
      limit: {
        type: 'integer',
        minimum: HISTORY_LIMIT.min,
        maximum: HISTORY_LIMIT.max,
        default: HISTORY_LIMIT.default,
        description: 'Maximum points; the most recent win.',
      },
    },
    errors: { 404: { description: 'Unknown market: a stale, empty history envelope.', envelope: true } },
    invalidInputCode: 'invalid_public_market_history_query',
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicOrderBook',
    path: '/api/v1/public/markets/{asset}/orderbook',
    field: 'Query.orderBook',
    maxAgeMs: MAX_AGE_MS.orderBook,
    summary: 'At most 100 cumulative bid and ask levels from the public snapshot cache.',
    pathParams: assetParam,
    errors: {
      404: { description: 'Market unknown or without a public order book.', code: 'public_orderbook_not_available' },
      503: { description: 'The read-only order-book source is unavailable.', code: 'public_orderbook_unavailable' },
    },
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicProtocol',
    path: '/api/v1/public/protocols/{protocol}',
    field: 'Query.protocol',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Availability, visibility and certification of one public protocol and its actions.',
    pathParams: { protocol: 'A public protocol id (paper-perps).' },
    errors: { 404: { description: 'No public protocol with this id.', code: 'public_protocol_not_found' } },
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicStatus',
    path: '/api/v1/public/status',
    field: 'Query.status',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Cache state, per-source health, market and protocol counts.',
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicMarketsMirror',
    path: '/api/v1/public/data/markets.json',
    field: 'Query.marketsMirror',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'JSON mirror of the markets list for crawlers, caches and static clients.',
    caching: 'etag',
  }),
  publicRoute({
    operationId: 'getPublicProtocolsMirror',
    path: '/api/v1/public/data/protocols.json',
    field: 'Query.protocols',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Metadata of every public protocol.',
    caching: 'etag',
  }),
  publicRoute({
    operationId: 'getPublicOpenApi',
    path: '/api/v1/public/openapi.public.json',
    field: 'Query.publicOpenApi',
    maxAgeMs: null,
    summary: 'The public contract as OpenAPI 3.1.',
    caching: 'none',
  }),
];

export const FUNDING_HISTORY_LIMIT = { min: 1, max: 720, default: 168 } as const;

const dataRoute = (r: Omit<RouteSpec, 'visibility' | 'scopes' | 'idempotent' | 'method' | 'caching'> & { scopes?: readonly string[] }): RouteSpec => ({
  method: 'GET',
  visibility: 'authenticated',
  scopes: ['data:read'],
  idempotent: false,
  caching: 'none',
  ...r,
});

const perpAsset = { asset: 'A perpetual asset symbol (BTC) or market id (BTC-PERP).' };

/** Authenticated routes: Bearer API key with the listed scopes (spec, Authenticated endpoints). */
export const AUTHENTICATED_ROUTES: readonly RouteSpec[] = [
  dataRoute({
    operationId: 'getPerpPrice',
    path: '/api/v1/data/perps/price/{asset}',
    field: 'Query.perpPrice',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Current price of a perpetual; read-only.',
    pathParams: perpAsset,
    errors: { 404: { description: 'No perpetual market for this asset.', code: 'market_not_found' } },
  }),
  dataRoute({
    operationId: 'getPerpFunding',
    path: '/api/v1/data/perps/funding/{asset}',
    field: 'Query.perpFunding',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Current funding of a perpetual; monitoring data, not an execution signal.',
    pathParams: perpAsset,
    errors: { 404: { description: 'No perpetual market for this asset.', code: 'market_not_found' } },
  }),
  dataRoute({
    operationId: 'getPerpFundingHistory',
    path: '/api/v1/data/perps/funding/history/{asset}',
    field: 'Query.perpFundingHistory',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Settled hourly funding of a perpetual, most recent last.',
    pathParams: perpAsset,
    queryParams: {
      limit: {
        type: 'integer',
        minimum: FUNDING_HISTORY_LIMIT.min,
        maximum: FUNDING_HISTORY_LIMIT.max,
        default: FUNDING_HISTORY_LIMIT.default,
        description: 'Entries to return (hourly; 720 is 30 days).',
      },
    },
    invalidInputCode: 'invalid_funding_history_query',
    errors: { 404: { description: 'No perpetual market for this asset.', code: 'market_not_found' } },
  }),
  dataRoute({
    operationId: 'getOrderBook',
    path: '/api/v1/data/orderbook/{asset}',
    field: 'Query.dataOrderBook',
    maxAgeMs: MAX_AGE_MS.orderBook,
    summary: 'Order book of a market from the snapshot cache (at most 100 levels a side).',
    pathParams: assetParam,
    errors: {
      404: { description: 'Market unknown or without an order book.', code: 'orderbook_not_available' },
      503: { description: 'The order-book source is unavailable.', code: 'orderbook_unavailable' },
    },
  }),
  dataRoute({
    operationId: 'getLendingYield',
    path: '/api/v1/data/lending/yield/{asset}',
    field: 'Query.lendingYield',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Supply and borrow APY and utilisation of a lending market.',
    pathParams: { asset: 'A lending market id (USDC-LEND) or its asset (USDC).' },
    errors: { 404: { description: 'No lending market for this asset.', code: 'market_not_found' } },
  }),
  dataRoute({
    operationId: 'getPortfolio',
    path: '/api/v1/data/portfolio',
    field: 'Query.portfolio',
    maxAgeMs: MAX_AGE_MS.default,
    summary: "The key's account: wallet, balances and their value at current prices.",
  }),
  dataRoute({
    operationId: 'getProtocolIntelligence',
    path: '/api/v1/data/protocols/{protocol}/intelligence',
    field: 'Query.protocolIntelligence',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Activity and health of one protocol: volume, open interest, funding or yield, source health.',
    pathParams: { protocol: 'A protocol id (paper-perps).' },
    errors: { 404: { description: 'No such protocol.', code: 'protocol_not_found' } },
  }),
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
  dataRoute({
    operationId: 'getContractOpenApi',
    path: '/api/v1/openapi.json',
    field: 'Query.contractOpenApi',
    scopes: [],
    maxAgeMs: null,
    summary: 'The full contract (public and authenticated routes) as OpenAPI 3.1.',
  }),
];

const executionRoute = (r: Omit<RouteSpec, 'visibility' | 'caching' | 'maxAgeMs'> & { maxAgeMs?: number | null; visibility?: RouteVisibility }): RouteSpec => ({
  visibility: 'authenticated',
  caching: 'none',
  maxAgeMs: null,
  ...r,
});

const approvalParam = { approvalId: 'An approval id (apr_...).' };

/** Wallet sessions, preview, approvals, execution, agent sessions, audit (spec: execution sequence). */
export const EXECUTION_ROUTES: readonly RouteSpec[] = [
  executionRoute({
    operationId: 'createSiweNonce',
    method: 'POST',
    path: '/api/v1/auth/siwe/nonce',
    field: 'Mutation.createSiweNonce',
    scopes: [],
    idempotent: false,
    security: 'none',
    summary: 'A single-use nonce for an EIP-4361 sign-in or re-authentication message.',
  }),
  executionRoute({
    operationId: 'verifySiwe',
    method: 'POST',
    path: '/api/v1/auth/siwe/verify',
    field: 'Mutation.verifySiwe',
    scopes: [],
    idempotent: false,
    security: 'none',
    summary: 'Sign in with Ethereum: a signed EIP-4361 message gives a short-lived wallet session (Bearer tgws_...).',
  }),
  executionRoute({
    operationId: 'signOut',
    method: 'DELETE',
    path: '/api/v1/auth/session',
    field: 'Mutation.signOut',
    scopes: [],
    idempotent: true,
    security: 'wallet_session',
    summary: "Ends every wallet session of the caller's account at once.",
  }),
  executionRoute({
    operationId: 'previewExecution',
    workflow: 'preview',
    method: 'POST',
    path: '/api/v1/execute/preview',
    field: 'Mutation.previewExecution',
    scopes: ['execute:preview'],
    idempotent: true,
    summary: 'Quote and gate-by-gate verdict for an instruction; idempotent by referenceId.',
    errors: { 409: { description: 'The referenceId was previewed with a different body.', code: 'IDEMPOTENCY_CONFLICT' } },
  }),
  executionRoute({
    operationId: 'createApproval',
    workflow: 'approval',
    method: 'POST',
    path: '/api/v1/execute/approvals',
    field: 'Mutation.createApproval',
    scopes: [],
    idempotent: false,
    security: 'wallet_session',
    summary: 'An exact, short-lived, one-time approval of a previewed instruction (wallet session).',
  }),
  executionRoute({
    operationId: 'getApproval',
    method: 'GET',
    path: '/api/v1/execute/approvals/{approvalId}',
    field: 'Query.approval',
    scopes: [],
    idempotent: false,
    pathParams: approvalParam,
    summary: 'An approval and its state (pending, approved, rejected, expired, consumed).',
    errors: { 404: { description: 'No such approval for this account.', code: 'approval_not_found' } },
  }),
  executionRoute({
    operationId: 'decideApproval',
    workflow: 'approval',
    method: 'PATCH',
    path: '/api/service/ai/approvals/{approvalId}',
    field: 'Mutation.decideApproval',
    scopes: [],
    idempotent: false,
    security: 'wallet_session',
    pathParams: approvalParam,
    summary: 'Approve or reject with a fresh wallet signature naming the approval and its instruction hash.',
    errors: { 404: { description: 'No such approval for this account.', code: 'approval_not_found' } },
  }),
  executionRoute({
    operationId: 'execute',
    workflow: 'execute',
    method: 'POST',
    path: '/api/v1/execute',
    field: 'Mutation.execute',
    scopes: ['execute:live'],
    idempotent: true,
    summary: 'Executes the unchanged request with an approvalId (interactive) or under an agent session (API key); gated, fails closed.',
    errors: { 503: { description: 'POLICY_UNAVAILABLE or VENUE_UNHEALTHY: nothing was executed.' } },
  }),
  executionRoute({
    operationId: 'getExecution',
    method: 'GET',
    path: '/api/v1/execute/executions/{executionId}',
    field: 'Query.execution',
    scopes: [],
    idempotent: false,
    pathParams: { executionId: 'An execution id (exe_...).' },
    summary: 'An execution and its state history.',
    errors: { 404: { description: 'No such execution for this account.', code: 'execution_not_found' } },
  }),
  executionRoute({
    operationId: 'getExecutionByReference',
    method: 'GET',
    path: '/api/v1/execute/references/{referenceId}',
    field: 'Query.executionByReference',
    scopes: [],
    idempotent: false,
    pathParams: { referenceId: 'The client referenceId of the execution request.' },
    summary: 'The execution of a referenceId: reconcile with it before retrying after an unknown outcome.',
    errors: { 404: { description: 'No execution with this referenceId.', code: 'execution_not_found' } },
  }),
  executionRoute({
    operationId: 'activateAgentSession',
    method: 'POST',
    path: '/api/v1/agent-sessions',
    field: 'Mutation.activateAgentSession',
    scopes: [],
    idempotent: false,
    security: 'wallet_session',
    summary: 'Activates a bounded agent session for one API key (wallet session).',
  }),
  executionRoute({
    operationId: 'listAgentSessions',
    method: 'GET',
    path: '/api/v1/agent-sessions',
    field: 'Query.agentSessions',
    scopes: [],
    idempotent: false,
    summary: "The account's agent sessions.",
  }),
  executionRoute({
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
  executionRoute({
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: '/api/v1/keys/{keyId}',
    field: 'Mutation.revokeApiKey',
    scopes: [],
    idempotent: true,
    security: 'wallet_session',
    pathParams: { keyId: 'An API key id.' },
    summary: "Revokes one of the account's API keys; effective on the next request.",
    errors: { 404: { description: 'No such key for this account.', code: 'api_key_not_found' } },
  }),
  executionRoute({
    operationId: 'getAuditLog',
    method: 'GET',
    path: '/api/v1/audit',
    field: 'Query.auditLog',
    scopes: [],
    idempotent: false,
    queryParams: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'Most recent entries to return.' } },
    summary: "The account's append-only, hash-chained audit log, with a verification of the chain.",
  }),
  executionRoute({
    operationId: 'getOperatorControls',
    method: 'GET',
    path: '/api/v1/operator/controls',
    field: 'Query.operatorControls',
    visibility: 'internal',
    scopes: [],
    idempotent: false,
    security: 'operator',
    summary: 'Feature flags, kill switch, circuit breakers and certifications in force (operator token).',
  }),
  executionRoute({
    operationId: 'updateOperatorControls',
    method: 'PATCH',
    path: '/api/v1/operator/controls',
    field: 'Mutation.updateOperatorControls',
    visibility: 'internal',
    scopes: [],
    idempotent: true,
    security: 'operator',
    summary: 'Changes feature flags, the kill switch, a circuit breaker or a certification (operator token).',
  }),
];

/** Every route of the contract, once. */
export const ROUTES: readonly RouteSpec[] = [...PUBLIC_ROUTES, ...AUTHENTICATED_ROUTES, ...EXECUTION_ROUTES];

/** `/api/v1/public/markets/{asset}` → `/v1/public/markets/:asset` under Sofa's `/api` base path. */
export function sofaPath(route: RouteSpec): string {
  return route.path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1');
}

export interface RouteMatch {
  route: RouteSpec;
  params: Record<string, string>;
}

/** Matches request paths against the registry; compiled once. */
export class RouteMatcher {
  private readonly compiled: { route: RouteSpec; pattern: RegExp; names: string[] }[];

  constructor(routes: readonly RouteSpec[]) {
    this.compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), '([^/]+)'));
      return { route, pattern: new RegExp(`^${source}$`), names };
    });
  }

  /** Routes whose path matches, whatever their method. */
  match(pathname: string): RouteMatch[] {
    const found: RouteMatch[] = [];
    for (const c of this.compiled) {
      const m = c.pattern.exec(pathname);
      if (!m) continue;
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
      found.push({ route: c.route, params });
    }
    return found;
  }
}
