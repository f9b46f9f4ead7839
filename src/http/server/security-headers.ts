import type { ServerResponse } from 'node:http';
import type { ServedRoute } from '../../contract/route-table.js';
import type { HeaderList } from '../pipeline/answer.js';

/** GraphiQL (development only) is one page with its bundle inlined (no CDN); it runs inline scripts and workers. */
const GRAPHIQL_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** The dashboard: its own scripts and styles only, GraphQL over HTTP and WebSocket to the same origin. */
const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
/** A JSON API: no content of any kind may load from an answer, and no page may frame one. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const list = (csp: string): HeaderList =>
  Object.freeze(['x-content-type-options', 'nosniff', 'referrer-policy', 'no-referrer', 'content-security-policy', csp]);
const GRAPHIQL = list(GRAPHIQL_CSP);
const DASHBOARD = list(DASHBOARD_CSP);
const API = list(API_CSP);

/**
 * Headers on every answer: no sniffing, no referrer, a restrictive CSP. One of three constant
 * lists, passed to writeHead with the answer's own headers (no setHeader before it), or set with
 * setHeaders before a handler that writes its answer itself.
 */
export function securityHeaders(route: ServedRoute, method: string | undefined, accept: string | undefined): HeaderList {
  if (route.serves === 'dashboard') return DASHBOARD;
  const wantsHtml = route.serves === 'graphql' && method === 'GET' && /text\/html/.test(accept ?? '');
  return wantsHtml ? GRAPHIQL : API;
}

/** Sets a header list on a response whose head is written later (setHeader for each). */
export function setHeaders(res: ServerResponse, headers: HeaderList): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}
