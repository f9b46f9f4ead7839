import type { ServerResponse } from 'node:http';
import { errorBodyOf, errorHeadersOf } from '../../errors/error-response.js';
import type { GatewayError } from '../../errors/gateway-error.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import type { Exchange } from './exchange.js';

/** What a request is answered with, as a value: a stage's refusal or a handler's answer. */
export interface Answer {
  status: number;
  /** Lower-case names; `content-length` is set when it is written. */
  headers: Record<string, string>;
  /** Bytes as sent (a string is UTF-8), or none (304, 204, HEAD). */
  body: Buffer | string | null;
}

/** Header names and values, alternating, as node:http's writeHead takes them. */
export type HeaderList = readonly string[];

/** The answer to a refusal: the spec's error response with the request id, the refusal's headers, CORS and RateLimit. */
export function refusalAnswer(exchange: Pick<Exchange, 'requestId' | 'cors' | 'rate'>, error: GatewayError): Answer {
  const headers = {
    ...exchange.cors,
    ...(exchange.rate?.allowed ? rateLimitHeaders(exchange.rate) : {}),
    ...errorHeadersOf(error),
    'x-request-id': exchange.requestId,
  };
  return { status: error.status, headers, body: JSON.stringify(errorBodyOf(error, exchange.requestId)) };
}

/**
 * Writes an answer with one writeHead carrying every header, the security headers first (node:http's
 * fast case: nothing set on the response before it).
 */
export function writeAnswer(res: ServerResponse, answer: Answer, security: HeaderList): void {
  const list = security.slice();
  const { headers, body } = answer;
  for (const name in headers) list.push(name, headers[name]!);
  if (body !== null) list.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  res.writeHead(answer.status, list);
  res.end(body ?? undefined);
}
