import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { OperatorAccess } from '../../controls/operator-access.js';
import { gateRefusal } from '../../errors/gate-refusals.js';
import { isGatewayError } from '../../errors/gateway-error.js';
import type { GatewayContext } from '../context/gateway-context.js';
import { rootFieldsAuthError } from '../pipeline/route-access.js';

/**
 * Authentication before validation on GraphQL, over HTTP, SSE and graphql-ws: an operation is
 * refused before its variables are coerced when a root field needs a credential or scope the
 * caller lacks (the REST routes have their own stage, authFirst, before their body is read).
 */
export function useGraphqlAuth(options: { operator: OperatorAccess; logger: Logger }): Plugin<GatewayContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const refusal = await graphqlRefusal(args, options);
      if (refusal) setResultAndStopExecution({ data: null, errors: [refusal] });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = await graphqlRefusal(args, options);
      if (refusal) setResultAndStopExecution({ data: null, errors: [refusal] });
    },
  };
}

/**
 * The root-field check of one GraphQL operation. An outage while checking refuses the operation
 * as a result (a GatewayError as is, anything else masked and logged), so a graphql-ws socket
 * answers that operation instead of closing.
 */
async function graphqlRefusal(args: ExecutionArgs, options: { operator: OperatorAccess; logger: Logger }): Promise<GraphQLError | undefined> {
  const ctx = args.contextValue as GatewayContext;
  try {
    return await rootFieldsAuthError(args.schema, args.document, args.operationName, ctx.auth, options.operator);
  } catch (err) {
    if (isGatewayError(err)) return err;
    options.logger.error({ err, requestId: ctx.http?.requestId }, 'credential check failed');
    return gateRefusal('POLICY_UNAVAILABLE', 'The credential could not be checked; retry shortly.', { gate: 'authority', check: 'credential_store' });
  }
}
