import type { IncomingMessage, ServerResponse } from 'node:http';

/** GraphiQL (development only) is one page with its bundle inlined (no CDN); it runs inline scripts and workers. */
const GRAPHIQL_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** The dashboard: its own scripts and styles only, GraphQL over HTTP and WebSocket to the same origin. */
const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
/** A JSON API: no content of any kind may load from an answer, and no page may frame one. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Header names and values, alternating, as node:http's writeHead takes them. */
export type HeaderList = readonly string[];

const list = (csp: string): HeaderList =>
  Object.freeze(['x-content-type-options', 'nosniff', 'referrer-policy', 'no-referrer', 'content-security-policy', csp]);
const GRAPHIQL = list(GRAPHIQL_CSP);
const DASHBOARD = list(DASHBOARD_CSP);
const API = list(API_CSP);

/**
 * Headers on every answer, the public fast path's included: no sniffing, no referrer, a
 * restrictive CSP. One of three constant lists, so the fast path can pass them to writeHead with
 * its own (no setHeader before it) and every other path sets them with setHeaders.
 */
export function securityHeaders(req: IncomingMessage, graphqlEndpoint: string): HeaderList {
  const url = req.url;
  if (url === undefined) return API;
  if (url === '/dashboard' || url.startsWith('/dashboard/')) return DASHBOARD;
  const wantsHtml = req.method === 'GET' && url.split('?')[0] === graphqlEndpoint && /text\/html/.test(req.headers.accept ?? '');
  return wantsHtml ? GRAPHIQL : API;
}

/** Sets a header list on a response whose head is written later (setHeader for each). */
export function setHeaders(res: ServerResponse, headers: HeaderList): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}
