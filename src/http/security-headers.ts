import type { IncomingMessage, ServerResponse } from 'node:http';

/** GraphiQL (development only) loads its bundle from a CDN and runs inline scripts; nothing else may. */
const GRAPHIQL_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline' https://unpkg.com; style-src 'self' 'unsafe-inline' https://unpkg.com; img-src 'self' data:; font-src https://unpkg.com; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** A JSON API: no content of any kind may load from an answer, and no page may frame one. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Headers on every answer, the public fast path's included: no sniffing, no referrer, a restrictive CSP. */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, graphqlEndpoint: string): void {
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  const wantsHtml = req.method === 'GET' && req.url?.split('?')[0] === graphqlEndpoint && /text\/html/.test(req.headers.accept ?? '');
  res.setHeader('content-security-policy', wantsHtml ? GRAPHIQL_CSP : API_CSP);
}
