import { getCORSHeadersByRequestAndOptions, type CORSOptions as CorsOptions } from '@whatwg-node/server';
import type { ServedRoute } from '../../../contract/route-table.js';
import type { Exchange } from '../exchange.js';
import type { Stage } from '../stage.js';

const EXPOSED = ['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'etag', 'idempotent-replayed'];

/** The public plane: any origin may read it, never with credentials. */
const PUBLIC_CORS: CorsOptions = { origin: '*', credentials: false, methods: ['GET'], exposedHeaders: EXPOSED, maxAge: 600 };

const NONE: Readonly<Record<string, string>> = Object.freeze({});

/** The routes a browser may call cross-origin at all: the REST routes and GraphQL (and their preflights). */
function corsRoute(route: ServedRoute): boolean {
  return route.template.startsWith('/api/') || route.serves === 'graphql' || (route.serves === 'unserved' && route.template === '/graphql');
}

/**
 * CORS from an allowlist (CORS_ORIGINS): the public plane for anyone without credentials;
 * authenticated routes and /graphql only for a listed origin, and credentials are never echoed
 * (the gateway authenticates with Bearer headers, not cookies). Any other origin gets no CORS
 * headers, so browsers keep its pages out. An OPTIONS request is the preflight: 204 with them.
 */
export function corsStage(allowlist: readonly string[]): Stage {
  const allowed = new Set(allowlist);
  const optionsFor = (exchange: Exchange, origin: string): CorsOptions | undefined => {
    if (exchange.route.template.startsWith('/api/v1/public/')) return PUBLIC_CORS;
    return allowed.has(origin) ? { origin: [origin], credentials: false, exposedHeaders: EXPOSED, maxAge: 600 } : undefined;
  };
  return {
    name: 'cors',
    appliesTo: corsRoute,
    run(exchange) {
      const origin = exchange.header('origin');
      const options = origin === undefined ? undefined : optionsFor(exchange, origin);
      exchange.cors = options ? corsHeaders(exchange, options) : NONE;
      if (exchange.method === 'OPTIONS') return { status: 204, headers: { ...exchange.cors, 'x-request-id': exchange.requestId }, body: '' };
      return undefined;
    },
  };
}

/** The headers @whatwg-node/server (Yoga's CORS) answers for this request and policy, with lower-case names. */
function corsHeaders(exchange: Exchange, options: CorsOptions): Record<string, string> {
  const asked: Record<string, string> = {};
  for (const name of ['origin', 'access-control-request-method', 'access-control-request-headers']) {
    const value = exchange.header(name);
    if (value !== undefined) asked[name] = value;
  }
  const headers = getCORSHeadersByRequestAndOptions(new Request('http://gateway.internal/', { headers: asked }), options) ?? {};
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return lower;
}
