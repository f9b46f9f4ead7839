import type { RouteSpec } from '../contract/route-spec.js';
import { cacheControlFor, etagMatches } from './cache-headers.js';
import type { RequestScope } from './request-scope.js';

/** How a successful REST answer leaves, from what its resolver recorded on the request scope. */
export interface FinishHead {
  /** The envelope's own status (404 for an unknown market) over the route's, or 304. */
  status: number;
  /** Set over the answer's own headers: Cache-Control, resolver extras, ETag. */
  headers: Record<string, string>;
  /** If-None-Match matched the ETag: answer 304 without a body or content headers. */
  notModified: boolean;
}

/** Sofa's finish() and the public fast path both finish a 2xx answer with this one decision. */
export function finishHead(route: RouteSpec, scope: RequestScope, status: number, ifNoneMatch: string | null | undefined): FinishHead {
  const headers: Record<string, string> = { 'cache-control': cacheControlFor(route, scope) };
  for (const [name, value] of Object.entries(scope.headers ?? {})) headers[name.toLowerCase()] = value;
  if (route.caching === 'etag' && scope.etag) {
    headers.etag = scope.etag;
    if (etagMatches(ifNoneMatch ?? null, scope.etag)) return { status: 304, headers, notModified: true };
  }
  return { status: scope.status ?? status, headers, notModified: false };
}
