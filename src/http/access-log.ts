import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/** What the edge notes on a request before anything else sees it. */
export interface EdgeTags {
  /** The method as received (a HEAD is served as its GET). */
  receivedMethod: string;
  /** The route template, `/graphql`, an operations route, or `unmatched`. */
  route: string;
}

export type TaggedRequest = IncomingMessage & { gatewayEdge?: EdgeTags };

/**
 * One line per finished request (pino-http): request id, method, URL, route template, status and
 * duration. Headers are never logged, so no API key, session token or signature can appear.
 */
export function accessLog(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return pinoHttp({
    logger,
    customAttributeKeys: { reqId: 'requestId' },
    quietReqLogger: true,
    wrapSerializers: false,
    serializers: {
      req: (req: TaggedRequest) => ({ method: req.gatewayEdge?.receivedMethod ?? req.method, url: req.url, remoteAddress: req.socket?.remoteAddress }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    redact: ['req.headers', 'res.headers'],
    customProps: (req: TaggedRequest) => ({ route: req.gatewayEdge?.route ?? 'unmatched' }),
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
  });
}
