import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RequestScope } from './request-scope.js';

/** What the edge notes on a request before anything else sees it. */
export interface EdgeTags {
  /** The method as received (a HEAD is served as its GET). */
  receivedMethod: string;
  /** The route template, `/graphql`, an operations route, or `unmatched`. */
  route: string;
  /** The scope the request runs in (Yoga's path), for the key id it authenticated with. */
  scope: RequestScope;
}

export type TaggedRequest = IncomingMessage & { gatewayEdge?: EdgeTags };

/**
 * One line per finished request: request id, method, URL, route template, status and duration
 * (`request completed`; `request failed` at error level for a 5xx or a connection closed before
 * the answer ended). Headers are never logged, so no API key, session token or signature can
 * appear. Written from the values the edge already has, and nothing is built when the line's
 * level is off (LOG_LEVEL=warn).
 */
export function accessLog(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    const done = () => {
      res.off('close', done);
      res.off('finish', done);
      const aborted = !res.writableFinished;
      const failed = aborted || res.statusCode >= 500;
      const level = failed ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const edge = (req as TaggedRequest).gatewayEdge;
      const line = {
        requestId: edge?.scope.requestId,
        req: { method: edge?.receivedMethod ?? req.method, url: req.url, route: edge?.route ?? 'unmatched', remoteAddress: req.socket?.remoteAddress },
        res: { statusCode: res.statusCode, ...principalOf(edge?.scope) },
        responseTime: Math.round(performance.now() - started),
        ...(aborted ? { err: { message: 'request aborted' } } : {}),
      };
      logger[level](line, failed ? 'request failed' : 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
  };
}

/** Who the request authenticated as, by id only: `keyId` for an API key, `walletSession` (a digest prefix) for a wallet. */
function principalOf(scope: RequestScope | undefined): Record<string, string> {
  const auth = scope?.auth?.current;
  if (auth?.kind === 'key') return { keyId: auth.key.id };
  if (auth?.kind === 'wallet') return { walletSession: auth.sessionId };
  return {};
}
