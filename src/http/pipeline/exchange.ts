import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestAuth } from '../../auth/authenticator.js';
import type { ServedRoute } from '../../contract/route-table.js';
import type { RateDecision } from '../../rate-limit/rate-limiter.js';
import type { InProcessRequest } from './in-process.js';

/**
 * One request as the stages see it, whichever way it came in (a node:http request, or an MCP
 * tool call made in-process): what it asked, and what the stages decided about it on the way.
 */
export interface Exchange {
  readonly requestId: string;
  /** The method served (a HEAD is served as its GET). */
  readonly method: string;
  /** The path as received (before its alias). */
  readonly path: string;
  /** The query string without its `?` (undefined when there is none). */
  readonly search: string | undefined;
  header(name: string): string | undefined;
  readonly remoteAddress: string | undefined;
  /** The route of the path and method (the table's pseudo-rows for an unknown path or method). */
  readonly route: ServedRoute;
  /** The path's parameters, decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** A path parameter was not valid percent-encoding (no parameters then). */
  readonly badEncoding: boolean;
  /** The node:http request and response, when it came in over the network (handlers that stream write to it). */
  readonly node?: { req: IncomingMessage & { body?: Buffer }; res: ServerResponse };
  /** The body, once read within the limit (bodyAdmission). */
  body?: Buffer;
  /** The credential, resolved at most once (rate limit, auth first, resolvers). */
  auth?: RequestAuth;
  /** The rate limiter's decision, for the RateLimit headers of the answer. */
  rate?: RateDecision;
  /** The CORS headers of the answer (empty without an Origin, or for an origin not allowed). */
  cors?: Readonly<Record<string, string>>;
  /** The GraphQL variables of a contract route: its path, query and body, checked. */
  variables?: Record<string, unknown>;
  /**
   * Its declared query parameters as read, in declared order (`&limit=24&resolution=1h`): what
   * follows the path in a public answer's key. Anything else in the query is ignored by the route,
   * so `?x=1`, `?x=2`, … are one answer, not one remembered copy each.
   */
  queryKey?: string;
}

/** An exchange over a node:http request. */
export function nodeExchange(
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  resolved: { route: ServedRoute; params: Readonly<Record<string, string>>; badEncoding: boolean },
): Exchange {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return {
    requestId,
    method: req.method ?? 'GET',
    path: q === -1 ? url : url.slice(0, q),
    search: q === -1 ? undefined : url.slice(q + 1),
    header: (name) => {
      const value = req.headers[name];
      return value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : value;
    },
    remoteAddress: req.socket.remoteAddress,
    route: resolved.route,
    params: resolved.params,
    badEncoding: resolved.badEncoding,
    node: { req, res },
  };
}

/** An exchange made in-process (an MCP tool call), with its own headers and body. */
export function inProcessExchange(
  request: InProcessRequest,
  resolved: { route: ServedRoute; params: Readonly<Record<string, string>>; badEncoding: boolean },
): Exchange {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    requestId: request.requestId,
    method: request.method,
    path: request.path,
    search: request.search,
    header: (name) => headers[name],
    remoteAddress: request.remoteAddress,
    route: resolved.route,
    params: resolved.params,
    badEncoding: resolved.badEncoding,
    ...(request.body ? { body: request.body } : {}),
  };
}
