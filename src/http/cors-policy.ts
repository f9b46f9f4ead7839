import type { CORSOptions } from 'graphql-yoga';

const EXPOSED = ['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'etag', 'idempotent-replayed'];

/** The public plane: any origin may read it, never with credentials. */
export const PUBLIC_CORS: CORSOptions = { origin: '*', credentials: false, methods: ['GET'], exposedHeaders: EXPOSED, maxAge: 600 };

/**
 * CORS from an allowlist (CORS_ORIGINS): the public plane for anyone without credentials;
 * authenticated routes and /graphql only for a listed origin, and credentials are never echoed
 * (the gateway authenticates with Bearer headers, not cookies). Any other origin gets no CORS
 * headers, so browsers keep its pages out.
 */
export function corsPolicy(allowlist: readonly string[]): (request: Request) => CORSOptions | false {
  const allowed = new Set(allowlist);
  return (request) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/api/v1/public/')) return PUBLIC_CORS;
    const origin = request.headers.get('origin');
    if (origin === null || !allowed.has(origin)) return false;
    return { origin: [origin], credentials: false, exposedHeaders: EXPOSED, maxAge: 600 };
  };
}
