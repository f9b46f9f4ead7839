import type { Logger } from 'pino';
import type { RouteSpec } from '../../contract/route-spec.js';
import { refusalAnswer, type Answer } from '../pipeline/answer.js';
import type { Exchange } from '../pipeline/exchange.js';
import type { AnswerEncoder } from './answer-encoding.js';
import { finishAnswer } from './answer-finish.js';
import type { PublicAnswerCache } from './public-answer-cache.js';
import { executeRoute, type Enveloped } from './route-execution.js';
import type { RouteOperation } from './route-operations.js';

export interface RestAnswersDeps {
  /** Public answers rendered once per snapshot version, re-timed per request. */
  cache: PublicAnswerCache;
  /** br/gzip of public answers. */
  encoder: AnswerEncoder;
  /** Each route's operation (built with the schema). */
  operations: () => ReadonlyMap<RouteSpec, RouteOperation>;
  envelop: (initialContext: { exchange: Exchange }) => Enveloped;
  logger: Logger;
}

/**
 * The handler of every contract route, after its stages: a public read the cache holds for the
 * current snapshot version is that answer re-timed; anything else is executed (and a public
 * read remembered); both leave through the one finish.
 */
export function restAnswers(deps: RestAnswersDeps): (exchange: Exchange) => Answer | Promise<Answer> {
  return (exchange) => {
    if (exchange.route.serves !== 'contract') throw new Error('restAnswers serves contract routes only');
    const spec = exchange.route.spec;
    const key = spec.visibility === 'public' && spec.method === 'GET' ? exchange.path + (exchange.queryKey ?? '') : undefined;
    const remembered = key === undefined ? undefined : deps.cache.answer(key);
    if (remembered) return finishAnswer(exchange, spec, remembered, deps.encoder);
    const operation = deps.operations().get(spec);
    if (!operation) throw new Error(`no operation for ${spec.operationId}`);
    return executeRoute(deps.envelop, exchange, operation, deps.logger).then((outcome) => {
      if ('refusal' in outcome) return refusalAnswer(exchange, outcome.refusal);
      if (key !== undefined) deps.cache.remember(key, outcome.result.body, outcome.result.facts);
      return finishAnswer(exchange, spec, outcome.result, deps.encoder);
    });
  };
}
