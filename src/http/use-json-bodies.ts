import type { Plugin } from 'graphql-yoga';
import { errorJson, errorResponse } from '../errors/error-response.js';
import { currentScope } from './request-scope.js';

/**
 * JSON in, on the routes that exist, after the credential check: a REST body must be
 * `application/json` (not XML, a form or a bare string parsed as JSON anyway), and every GraphQL
 * POST too, so no form or text/plain request (which browsers send cross-site without a CORS
 * preflight) can run a mutation. A 415 in the error shape; a GraphQL request accepting none of
 * the media types GraphQL answers in is a 406 in the error shape.
 */
export function useJsonBodies(graphqlEndpoint: string): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname === graphqlEndpoint && !acceptsGraphqlAnswer(request.headers.get('accept'))) {
        const body = errorResponse(406, 'not_acceptable', 'GraphQL answers are JSON or an event stream: accept application/json.', currentScope()?.requestId, {
          retryable: false,
        });
        return endResponse(errorJson(406, body));
      }
      const isGraphqlPost = url.pathname === graphqlEndpoint && request.method === 'POST';
      const route = currentScope()?.route;
      if (!isGraphqlPost && !(route && hasBody(request))) return;
      if (isJson(request.headers.get('content-type'))) return;
      const body = errorResponse(
        415,
        'unsupported_media_type',
        'The request body must be JSON: send Content-Type: application/json.',
        currentScope()?.requestId,
        {
          retryable: false,
        },
      );
      endResponse(errorJson(415, body, { accept: 'application/json' }));
    },
  };
}

const GRAPHQL_ANSWERS = /(^|,)\s*(\*\/\*|application\/\*|application\/json|application\/graphql-response\+json|text\/event-stream|multipart\/mixed)\s*(;|,|$)/i;

/** Yoga answers 406 with an empty body when no media type of its own is acceptable; this says so first, in JSON. */
function acceptsGraphqlAnswer(accept: string | null): boolean {
  return accept === null || accept.trim() === '' || GRAPHQL_ANSWERS.test(accept);
}

function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  return (length !== null && Number(length) > 0) || request.headers.has('transfer-encoding');
}

function isJson(contentType: string | null): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json' || (type !== undefined && /^application\/[\w.+-]+\+json$/.test(type));
}
