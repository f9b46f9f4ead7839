import { AsyncLocalStorage } from 'node:async_hooks';
import type { Freshness, FreshnessBasis } from '../domain/freshness.js';
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
  /** Set by a resolver whose answer depends only on the snapshot version and the instant (see RenderedAnswers). */
  timed?: TimedAnswer;
  /** The request's credential, once the edge has resolved it (auth first); resolvers reuse it and the access log names the key. */
  auth?: RequestAuth;
}

/**
 * How an answer depends on time: it was computed at `now` from the snapshot cache at `version`,
 * and within the body only `generatedAt` and these freshness values (in the order their JSON
 * appears, the envelope's first) depend on the instant.
 */
export interface TimedAnswer {
  version: string;
  now: number;
  freshness: FreshnessBasis[];
  /** A mirror's ETag, from the version and the freshness values at the instant of the answer. */
  etag?: (version: string, freshness: readonly Freshness[]) => string;
  /**
   * Members whose value is the instant itself (RFC 3339), after the freshness values in body
   * order, one each: a history's default `to`.
   */
  instants?: readonly string[];
  /**
   * For an answer that depends on more than the snapshot version (a history on its candles and
   * on which buckets are closed): whether it still stands at this instant. Checked on every reuse.
   */
  standsAt?: (now: number) => boolean;
}

const scopes = new AsyncLocalStorage<RequestScope>();

export function runInScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

export function currentScope(): RequestScope | undefined {
  return scopes.getStore();
}
