import type { GraphQLSchema } from 'graphql';
import { invalidBodyShape } from '../../../errors/error-factories.js';
import { restBodyProblem } from '../../rest/rest-body-check.js';
import { refusalAnswer } from '../answer.js';
import type { Stage } from '../stage.js';

/**
 * A REST body checked strictly against its route's arguments before it runs (restBodyProblem),
 * after the credential check: a malformed body is a 400 naming the field in the client's terms,
 * never a GraphQL variable message or a JavaScript error. Its top-level members become the
 * operation's variables (the contract's flat bodies: `{"protocol": …, "referenceId": …}`).
 */
export function strictBodyStage(schema: () => GraphQLSchema): Stage {
  return {
    name: 'strictBody',
    appliesTo: (route) => route.serves === 'contract' && route.method !== 'GET',
    run(exchange) {
      if (exchange.route.serves !== 'contract') return undefined;
      const spec = exchange.route.spec;
      const code = spec.invalidInputCode ?? 'invalid_request';
      const text = exchange.body?.toString('utf8') ?? '';
      let body: unknown = {};
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          return refusalAnswer(exchange, invalidBodyShape('The request body is not valid JSON.', code));
        }
      }
      const problem = restBodyProblem(schema(), spec, body);
      if (problem) return refusalAnswer(exchange, invalidBodyShape(problem.message, code, problem.field || undefined));
      exchange.variables = { ...exchange.variables, ...(body as Record<string, unknown>) };
      return undefined;
    },
  };
}
