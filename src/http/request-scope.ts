import { AsyncLocalStorage } from 'node:async_hooks';
import type { Freshness } from '../domain/freshness.js';
import type { RouteSpec } from '../contract/route-spec.js';
import type { RequestAuth } from '../auth/authenticator.js';

/**
 * What one HTTP request carries between the server edge, Sofa and the resolvers: its id, the
 * contract route it matched, and what resolvers decide about the response (status, freshness, ETag).
 */
export interface RequestScope {
  requestId: string;
  route?: RouteSpec;
  /** Set by a resolver that answers with an envelope under a non-200 status (unknown market). */
  status?: number;
  freshness?: Freshness;
  /** Weak validator of the snapshot behind a mirror response. */
  etag?: string;
  /** Extra response headers a resolver decided (Idempotent-Replayed). */
  headers?: Record<string, string>;
  /** The request's credential, once the edge has resolved it (auth first); resolvers reuse it and the access log names the key. */
  auth?: RequestAuth;
}

const scopes = new AsyncLocalStorage<RequestScope>();

export function runInScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

export function currentScope(): RequestScope | undefined {
  return scopes.getStore();
}
