import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Exchange } from '../pipeline/exchange.js';

/** What the server notes on a request before anything else sees it. */
export interface EdgeTags {
  /** The method as received (a HEAD is served as its GET). */
  receivedMethod: string;
  /** The route template, `/graphql`, an operations route, or `unmatched`. */
  route: string;
  /** The request as the stages saw it, for the id and the key it authenticated with. */
  exchange: Exchange;
}

export type TaggedRequest = IncomingMessage & { gatewayEdge?: EdgeTags };

/**
 * One line per finished request (pino-http): request id, method, URL, route template, status and
 * duration (`request completed`; `request failed` at error level for a 5xx or a connection closed
 * before the answer ended, but for a probe's 503, which is its answer). Headers are never logged, so no API key, session token or signature
 * can appear. When the info level is off (LOG_LEVEL=warn) no per-request logger is built: only
 * failed requests are written, in the same shape, from the values the edge already has.
 */
export function accessLog(logger: Logger): AccessLog {
  return logger.isLevelEnabled('info') ? { attach: pinoAccessLog(logger) } : { closed: failuresOnly(logger) };
}

/** How the edge drives the access log: pino-http attached per request, or the failures-only line when the answer closes. */
export interface AccessLog {
  attach?: (req: IncomingMessage, res: ServerResponse) => void;
  /** Told once, when the response closes (after it finished, or when the connection closed first). */
  closed?: (req: IncomingMessage, res: ServerResponse, startedMs: number) => void;
}

function pinoAccessLog(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return pinoHttp({
    logger,
    customAttributeKeys: { reqId: 'requestId' },
    quietReqLogger: true,
    wrapSerializers: false,
    serializers: {
      req: (req: TaggedRequest) => requestFields(req),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode, ...principalOf((res.req as TaggedRequest | undefined)?.gatewayEdge?.exchange) }),
    },
    redact: ['req.headers', 'res.headers'],
    // A connection closed before the answer ended is a failure on this path too (pino-http logs it without an error).
    customLogLevel: (req, res, err) => (!err && probeAnswered(req, res) ? 'info' : err || res.statusCode >= 500 || !res.writableEnded ? 'error' : 'info'),
    customSuccessMessage: (_req, res) => (res.writableEnded ? 'request completed' : 'request failed'),
    customErrorMessage: (req, res, err) => (probeAnswered(req, res) && isStatusOnly(err) ? 'request completed' : 'request failed'),
    // pino-http makes an Error (with its own stack) for any 5xx; a probe's 503 is its answer, not a failure.
    customErrorObject: (req, res, err, line: Record<string, unknown>) => (probeAnswered(req, res) && isStatusOnly(err) ? { ...line, err: undefined } : line),
  });
}

/**
 * `/readyz` or `/healthz` answered in full: a 503 there means "starting" or "draining" (the
 * probe's answer, polled by orchestrators every few seconds), logged as a completed request.
 */
function probeAnswered(req: IncomingMessage, res: ServerResponse): boolean {
  const route = (req as TaggedRequest).gatewayEdge?.route;
  return (route === '/readyz' || route === '/healthz') && res.writableEnded;
}

/** The Error pino-http makes from a status alone, as opposed to one thrown while answering. */
const isStatusOnly = (err: Error) => err.message.startsWith('failed with status code ');

function failuresOnly(logger: Logger): NonNullable<AccessLog['closed']> {
  return (req, res, started) => {
    const aborted = !res.writableEnded;
    if (!(aborted || res.statusCode >= 500) || probeAnswered(req, res) || !logger.isLevelEnabled('error')) return;
    const edge = (req as TaggedRequest).gatewayEdge;
    const exchange = edge?.exchange;
    const line = {
      requestId: exchange?.requestId,
      req: requestFields(req as TaggedRequest),
      res: { statusCode: res.statusCode, ...principalOf(exchange) },
      responseTime: Math.round(performance.now() - started),
      ...(aborted ? { err: { message: 'request aborted' } } : {}),
    };
    logger.error(line, 'request failed');
  };
}

function requestFields(req: TaggedRequest) {
  return {
    method: req.gatewayEdge?.receivedMethod ?? req.method,
    url: req.url,
    route: req.gatewayEdge?.route ?? 'unmatched',
    remoteAddress: req.socket?.remoteAddress,
  };
}

/** Who the request authenticated as, by id only: `keyId` for an API key, `walletSession` (a digest prefix) for a wallet. */
function principalOf(exchange: Exchange | undefined): Record<string, string> {
  const auth = exchange?.auth?.current;
  if (auth?.kind === 'key') return { keyId: auth.key.id };
  if (auth?.kind === 'wallet') return { walletSession: auth.sessionId };
  return {};
}
