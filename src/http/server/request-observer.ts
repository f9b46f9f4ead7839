import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { RouteMatcher } from '../contract/route-matcher.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { errorHeaders, errorResponse } from '../errors/error-response.js';
import { accessLog, type AccessLog, type TaggedRequest } from './access-log.js';
import { DASHBOARD_PATH } from './dashboard-assets.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { readinessProblems, type ReadinessDeps } from './readiness.js';
import type { RequestScope } from './request-scope.js';
import { setHeaders, type HeaderList } from './security-headers.js';

export interface ServerEdgeOptions {
  routes: readonly RouteSpec[];
  graphqlEndpoint: string;
  metrics: GatewayMetrics;
  readiness: ReadinessDeps;
  /** Bearer token /metrics requires; undefined leaves it open. */
  metricsToken: string | undefined;
  /** The access logger; undefined turns access logs off. */
  logger: Logger | undefined;
}

/** Internal routes: never rate limited, in neither contract document. */
export const OPERATIONS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;
const OPERATIONS: ReadonlySet<string> = new Set(OPERATIONS_PATHS);
const JSON_TYPE = 'application/json; charset=utf-8';
const ROUTE_CACHE_LIMIT = 2_000;

/**
 * The first thing every request meets (the paths after it echo the request id): it serves HEAD as GET without a
 * body (RFC 9110 §9.3.2; node:http drops the body of an answer to HEAD), counts the request in the
 * metrics and the access log when it ends, and answers the operations routes itself.
 */
export class ServerEdge {
  private readonly matcher: RouteMatcher;
  private readonly routeOfPath = new Map<string, string>();
  private readonly log: AccessLog;

  constructor(private readonly options: ServerEdgeOptions) {
    this.matcher = new RouteMatcher(options.routes);
    this.log = options.logger ? accessLog(options.logger) : {};
  }

  /** Returns true when the request was an operations route and is answered (with the security headers). */
  accept(req: IncomingMessage, res: ServerResponse, requestId: string, security: HeaderList): boolean {
    const receivedMethod = req.method ?? 'GET';
    const path = pathOf(req.url);
    const route = this.routeTemplate(path);
    (req as TaggedRequest).gatewayEdge = { receivedMethod, route, scope: { requestId } };
    (req as { id?: unknown }).id = requestId;
    if (receivedMethod === 'HEAD') req.method = 'GET';
    if (this.options.readiness.state.draining) res.setHeader('connection', 'close');
    const started = performance.now();
    const sse = route === this.options.graphqlEndpoint && (req.headers.accept ?? '').includes('text/event-stream');
    if (sse) this.options.metrics.sseOpened();
    // One listener for the metrics and the failures-only access log ('close' comes once: no once() wrapper to remove).
    const closed = this.log.closed;
    res.on('close', () => {
      if (sse) this.options.metrics.sseClosed();
      this.options.metrics.observe(receivedMethod, route, res.statusCode, (performance.now() - started) / 1000);
      closed?.(req, res, started);
    });
    this.log.attach?.(req, res);
    if (OPERATIONS.has(path)) {
      setHeaders(res, security);
      void this.serveOperation(req, res, path, requestId);
      return true;
    }
    if (this.options.readiness.state.started) return false;
    setHeaders(res, security);
    // Listening comes before the stores connect and history is backfilled, so a port in use fails first.
    res.setHeader('x-request-id', requestId);
    sendJson(
      res,
      503,
      errorResponse(503, 'starting', 'The gateway is starting; retry in a moment.', requestId, { retryAfter: 1, retryable: true }),
      errorHeaders({ 'retry-after': '1' }),
    );
    return true;
  }

  private async serveOperation(req: IncomingMessage, res: ServerResponse, path: string, requestId: string): Promise<void> {
    res.setHeader('x-request-id', requestId);
    if (req.method !== 'GET') {
      return sendError(res, 405, 'method_not_allowed', `${(req as TaggedRequest).gatewayEdge?.receivedMethod} is not allowed on ${path}; use GET.`, requestId, {
        allow: 'GET, HEAD',
      });
    }
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      const problems = await readinessProblems(this.options.readiness);
      if (problems.length === 0) return sendJson(res, 200, { status: 'ready' });
      const body = errorResponse(503, 'not_ready', `Not ready: ${problems.join('; ')}.`, requestId, { details: { reasons: problems }, retryable: true });
      return sendJson(res, 503, body, errorHeaders());
    }
    if (!this.metricsAllowed(req.headers.authorization)) {
      return sendError(res, 401, 'unauthorized', 'GET /metrics needs Authorization: Bearer <GATEWAY_METRICS_TOKEN>.', requestId, {
        'www-authenticate': 'Bearer',
      });
    }
    try {
      const text = await this.options.metrics.text();
      res.writeHead(200, { 'content-type': this.options.metrics.contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    } catch {
      sendError(res, 500, 'internal_error', 'Metrics could not be collected.', requestId, {});
    }
  }

  /** The request scope Yoga's path runs the request in (made by `accept`). */
  scopeOf(req: IncomingMessage, requestId: string): RequestScope {
    return (req as TaggedRequest).gatewayEdge?.scope ?? { requestId };
  }

  private metricsAllowed(authorization: string | undefined): boolean {
    const token = this.options.metricsToken;
    if (token === undefined) return true;
    const presented = Buffer.from(authorization ?? '');
    const expected = Buffer.from(`Bearer ${token}`);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  }

  /** The label of a path: its registry route template, the GraphQL endpoint, an operations route, or `unmatched`. */
  private routeTemplate(path: string): string {
    if (OPERATIONS.has(path) || path === this.options.graphqlEndpoint) return path;
    if (path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`)) return DASHBOARD_PATH; // one label for the page and its assets
    let route = this.routeOfPath.get(path);
    if (route !== undefined) return route;
    try {
      route = this.matcher.match(path)[0]?.route.path ?? 'unmatched';
    } catch {
      route = 'unmatched';
    }
    if (this.routeOfPath.size >= ROUTE_CACHE_LIMIT) this.routeOfPath.clear();
    this.routeOfPath.set(path, route);
    return route;
  }
}

function pathOf(url: string | undefined): string {
  const q = (url ?? '/').indexOf('?');
  return q === -1 ? (url ?? '/') : url!.slice(0, q);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = { 'cache-control': 'no-store' }): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, code: string, message: string, requestId: string, headers: Record<string, string>): void {
  sendJson(res, status, errorResponse(status, code, message, requestId, { retryable: false }), errorHeaders(headers));
}
