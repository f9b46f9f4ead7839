import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { GatewayError } from '../../errors/gateway-error.js';
import { renderJson } from '../../domain/rendered-json.js';
import type { Exchange } from '../pipeline/exchange.js';
import { restRefusal } from '../pipeline/rest-refusal.js';
import { RouteRoot } from './answer-facts.js';
import type { RouteResult } from './answer-finish.js';
import type { RouteOperation } from './route-operations.js';

/** What Yoga's envelop gives for one request: its context and its execute (graphql-jit, auth, masking, metrics). */
export interface Enveloped {
  schema: GraphQLSchema;
  contextFactory(): unknown;
  execute(args: {
    schema: GraphQLSchema;
    document: RouteOperation['document'];
    rootValue: unknown;
    contextValue: unknown;
    variableValues: Record<string, unknown>;
  }): unknown;
}

/**
 * Runs a contract route's operation through Yoga's envelop, as GraphQL runs any operation (the
 * same context, plugins and error masking), and returns its answer (the root field's value as
 * JSON, with the facts its resolver returned) or its refusal.
 */
export async function executeRoute(
  envelop: (initialContext: { exchange: Exchange }) => Enveloped,
  exchange: Exchange,
  operation: RouteOperation,
  logger: Logger,
): Promise<{ result: RouteResult } | { refusal: GatewayError }> {
  try {
    const enveloped = envelop({ exchange });
    const contextValue = await enveloped.contextFactory();
    const rootValue = new RouteRoot();
    const executed = (await enveloped.execute({
      schema: enveloped.schema,
      document: operation.document,
      rootValue,
      contextValue,
      variableValues: exchange.variables ?? {},
    })) as { data?: Record<string, unknown> | null; errors?: readonly unknown[] };
    if (executed.errors?.length) return { refusal: restRefusal(executed.errors, exchange, logger) };
    return { result: { body: renderJson(executed.data?.[operation.fieldName]), facts: rootValue.facts ?? {} } };
  } catch (error) {
    return { refusal: restRefusal([error], exchange, logger) };
  }
}
