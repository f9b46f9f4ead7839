import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RouteTable } from '../../contract/route-table.js';
import { internalError } from '../../errors/availability-refusals.js';
import { refusalAnswer, writeAnswer, type Answer, type HeaderList } from '../pipeline/answer.js';
import { nodeExchange, type Exchange } from '../pipeline/exchange.js';
import { WRITTEN, type GatewayPipeline } from '../pipeline/gateway-pipeline.js';
import { answerClientErrors } from './client-errors.js';
import { requestIdOf } from './request-id.js';
import type { RequestObserver } from './request-observer.js';
import { securityHeaders } from './security-headers.js';

export interface GatewayServerDeps {
  table: RouteTable;
  pipeline: GatewayPipeline;
  observer: RequestObserver;
  logger: Logger;
}

/**
 * The node:http server: every request is resolved against the route table (contract routes and
 * the endpoints beside them), observed (metrics, access log), and answered by the pipeline, whose
 * answer is written with one writeHead carrying the security headers.
 */
export function createGatewayServer(deps: GatewayServerDeps): Server {
  const server = createServer((req, res) => serve(deps, req, res));
  answerClientErrors(server, deps.logger);
  return server;
}

function serve(deps: GatewayServerDeps, req: IncomingMessage, res: ServerResponse): void {
  const requestId = requestIdOf(req.headers['x-request-id']);
  const received = req.method ?? 'GET';
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const resolved = deps.table.resolve(received, q === -1 ? url : url.slice(0, q));
  // Served as its GET; node:http drops the body of an answer to HEAD (RFC 9110 §9.3.2).
  if (received === 'HEAD') req.method = 'GET';
  const exchange = nodeExchange(req, res, requestId, resolved);
  deps.observer.observe(exchange, received);
  const security = securityHeaders(resolved.route, req.method, req.headers.accept);
  const write = (outcome: Answer | typeof WRITTEN) => {
    if (outcome !== WRITTEN) writeAnswer(res, outcome, security);
  };
  const fail = (err: unknown) => failed(deps.logger, exchange, security, err);
  try {
    const outcome = deps.pipeline.serve(exchange, security);
    if (outcome instanceof Promise) outcome.then(write, fail);
    else write(outcome);
  } catch (err) {
    fail(err);
  }
}

/** A fault of the gateway itself while answering: logged with the request id, masked as a 500, or the connection cut once headers are out. */
function failed(logger: Logger, exchange: Exchange, security: HeaderList, err: unknown): void {
  const { res } = exchange.node!;
  logger.error({ err, requestId: exchange.requestId, route: exchange.route.template }, 'request failed');
  if (!res.headersSent) writeAnswer(res, refusalAnswer(exchange, internalError()), security);
  else res.destroy();
}
