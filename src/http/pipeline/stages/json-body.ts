import { notAcceptable, unsupportedMediaType } from '../../../errors/error-factories.js';
import { refusalAnswer } from '../answer.js';
import type { Exchange } from '../exchange.js';
import type { Stage } from '../stage.js';

const GRAPHQL_ANSWERS = /(^|,)\s*(\*\/\*|application\/\*|application\/json|application\/graphql-response\+json|text\/event-stream|multipart\/mixed)\s*(;|,|$)/i;

/**
 * JSON in, on the routes that exist, after the credential check: a REST body must be
 * `application/json` (not XML, a form or a bare string parsed as JSON anyway), and every GraphQL
 * POST too, so no form or text/plain request (which browsers send cross-site without a CORS
 * preflight) can run a mutation. A GraphQL request accepting none of the media types GraphQL
 * answers in is a 406 (Yoga's would have an empty body).
 */
export function jsonBodyStage(): Stage {
  return {
    name: 'jsonBody',
    appliesTo: (route) => (route.serves === 'contract' && route.method !== 'GET') || route.serves === 'graphql',
    run(exchange) {
      const graphql = exchange.route.serves === 'graphql';
      if (graphql && !acceptsGraphqlAnswer(exchange.header('accept'))) return refusalAnswer(exchange, notAcceptable());
      const mustBeJson = graphql ? exchange.method === 'POST' : hasBody(exchange);
      return mustBeJson && !isJson(exchange.header('content-type')) ? refusalAnswer(exchange, unsupportedMediaType()) : undefined;
    },
  };
}

function acceptsGraphqlAnswer(accept: string | undefined): boolean {
  return accept === undefined || accept.trim() === '' || GRAPHQL_ANSWERS.test(accept);
}

function hasBody(exchange: Exchange): boolean {
  if (exchange.body !== undefined) return exchange.body.length > 0;
  const length = exchange.header('content-length');
  return (length !== undefined && Number(length) > 0) || exchange.header('transfer-encoding') !== undefined;
}

function isJson(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[\w.+-]+\+json$/.test(type));
}
