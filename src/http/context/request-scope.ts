import type { RouteSpec } from '../../contract/route-spec.js';

/**
 * Which request an execution belongs to: its id and the contract route it runs, for resolvers
 * (ctx.http), metrics (REST or GraphQL) and the log line of an unexpected error (with the id the
 * client was given). Passed in the context, never through AsyncLocalStorage: on Node 20 one
 * `run` installs a promise hook that taxes every promise of the process from then on.
 */
export interface RequestScope {
  requestId: string;
  route?: RouteSpec;
}
