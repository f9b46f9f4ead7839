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
  /** More than the summary: what the operation does and when to call it (the contract adds auth, freshness and idempotency). */
  description?: string;
  /** The named request body component (`ExecutionRequest`), for routes with a body. */
  requestSchema?: string;
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
