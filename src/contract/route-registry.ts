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

/** Every route of the contract, once. Sofa routes, both OpenAPI documents and tests derive from it. */
export const ROUTES: readonly RouteSpec[] = [
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
      limit: { type: 'integer', minimum: HISTORY_LIMIT.min, maximum: HISTORY_LIMIT.max, default: HISTORY_LIMIT.default, description: 'Maximum points; the most recent win.' },
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

export const PUBLIC_PREFIX = '/api/v1/public/';

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
