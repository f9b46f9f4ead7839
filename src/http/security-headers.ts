import type { IncomingMessage, ServerResponse } from 'node:http';

/** GraphiQL (development only) is one page with its bundle inlined (no CDN); it runs inline scripts and workers. */
const GRAPHIQL_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** The dashboard: its own scripts and styles only, GraphQL over HTTP and WebSocket to the same origin. */
const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
/** A JSON API: no content of any kind may load from an answer, and no page may frame one. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Headers on every answer, the public fast path's included: no sniffing, no referrer, a restrictive CSP. */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, graphqlEndpoint: string): void {
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  const wantsHtml = req.method === 'GET' && req.url?.split('?')[0] === graphqlEndpoint && /text\/html/.test(req.headers.accept ?? '');
  const dashboard = req.url === '/dashboard' || req.url?.startsWith('/dashboard/');
  res.setHeader('content-security-policy', wantsHtml ? GRAPHIQL_CSP : dashboard ? DASHBOARD_CSP : API_CSP);
}
