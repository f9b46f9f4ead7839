import { AsyncLocalStorage } from 'node:async_hooks';
import type { RouteSpec } from '../../contract/route-spec.js';

/**
 * Which request an execution belongs to: its id and the contract route it runs, for resolvers
 * (ctx.http), metrics (REST or GraphQL) and the log lines Yoga writes while it runs (an
 * unexpected error masked for the client is logged with the id the client was given).
 */
export interface RequestScope {
  requestId: string;
  route?: RouteSpec;
}

const scopes = new AsyncLocalStorage<RequestScope>();

export function runInScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

export function currentScope(): RequestScope | undefined {
  return scopes.getStore();
}
