import type { RouteSpec } from '../../contract/route-spec.js';
import type { Answer } from '../pipeline/answer.js';
import type { Exchange } from '../pipeline/exchange.js';
import { rateLimitHeaders } from '../pipeline/rate-limit-headers.js';
import type { AnswerFacts } from './answer-facts.js';
import { answerHeaders, NOT_MODIFIED_VARY, type AnswerEncoder, type AnswerEncodings } from './answer-encoding.js';
import { cacheControlFor, etagMatches } from './cache-headers.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A contract route's successful answer before it leaves: its JSON body and the facts its resolver returned. */
export interface RouteResult {
  body: string;
  facts: Readonly<AnswerFacts>;
  /** Bodies of this answer as already sent (a remembered answer's), reused instead of encoding again. */
  encodings?: AnswerEncodings;
}

/**
 * How every successful contract answer leaves, remembered or executed: the envelope's own status
 * over the route's, Cache-Control from its freshness, its headers, the ETag and 304, CORS and
 * RateLimit, and for a public GET its br/gzip encoding (negotiated, so Vary: Accept-Encoding).
 */
export function finishAnswer(exchange: Exchange, spec: RouteSpec, result: RouteResult, encoder: AnswerEncoder): Answer {
  const { facts } = result;
  const head: Record<string, string> = { 'x-request-id': exchange.requestId, 'cache-control': cacheControlFor(spec, facts.freshness) };
  if (facts.headers) Object.assign(head, facts.headers);
  const negotiated = spec.visibility === 'public' && spec.method === 'GET';
  const limits = exchange.rate?.allowed ? rateLimitHeaders(exchange.rate) : undefined;
  if (spec.caching === 'etag' && facts.etag) {
    head.etag = facts.etag;
    if (etagMatches(exchange.header('if-none-match'), facts.etag)) {
      // Nothing is encoded for an answer that is not sent.
      return { status: 304, headers: answerHeaders(head, exchange.cors ?? {}, negotiated ? NOT_MODIFIED_VARY : {}, limits ?? {}), body: null };
    }
  }
  const status = facts.status ?? 200;
  if (!negotiated) return { status, headers: answerHeaders(head, { 'content-type': JSON_TYPE }, exchange.cors ?? {}, limits ?? {}), body: result.body };
  const encoded = encoder.encode(result.body, exchange.header('accept-encoding'), result.encodings);
  const headers = answerHeaders(head, exchange.cors ?? {}, encoded.headers, limits ?? {});
  headers['content-type'] = JSON_TYPE;
  return { status, headers, body: encoded.body };
}
