import { WRITTEN, type RouteHandler } from '../pipeline/gateway-pipeline.js';
import { rateLimitHeaders } from '../pipeline/rate-limit-headers.js';
import { setHeaders } from '../server/security-headers.js';
import type { GatewayYoga } from './yoga-server.js';

/**
 * /graphql over HTTP and SSE, after its stages (CORS, body limit, rate limit, media types):
 * Yoga answers on the response itself, with the headers the stages decided already set on it.
 */
export function graphqlEndpoint(yoga: GatewayYoga): RouteHandler {
  return (exchange, security) => {
    const { req, res } = exchange.node!;
    setHeaders(res, security);
    res.setHeader('x-request-id', exchange.requestId);
    const decided = { ...exchange.cors, ...(exchange.rate?.allowed ? rateLimitHeaders(exchange.rate) : {}) };
    for (const name in decided) res.setHeader(name, decided[name]!);
    return yoga.handle(req, res, { exchange }).then(() => WRITTEN);
  };
}
