import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { errorJson, errorResponse } from '../errors/error-response.js';
import { currentScope } from './request-scope.js';
import { restBodyProblem } from './rest-body-check.js';

/**
 * REST bodies checked at the edge of Sofa (restBodyProblem), after the credential check: a
 * malformed body is a 400 naming the field in the client's terms, never a GraphQL variable
 * message or a JavaScript error.
 */
export function useStrictBodies(): Plugin {
  let schema: GraphQLSchema | undefined;
  return {
    onSchemaChange({ schema: next }) {
      schema = next;
    },
    async onRequest({ request, endResponse }) {
      const scope = currentScope();
      const route = scope?.route;
      if (!route || !schema || route.method === 'GET') return;
      const text = await request.clone().text();
      let body: unknown = {};
      let problem: { field: string; message: string } | undefined;
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          problem = { field: '', message: 'The request body is not valid JSON.' };
        }
      }
      problem ??= restBodyProblem(schema, route, body);
      if (!problem) return;
      const code = route.invalidInputCode ?? 'invalid_request';
      const details = problem.field ? { field: problem.field } : undefined;
      endResponse(errorJson(400, errorResponse(400, code, problem.message, scope.requestId, { retryable: false, ...(details ? { details } : {}) })));
    },
  };
}
