import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { RequestAuth, type Authenticator } from '../auth/authenticator.js';
import type { OperatorAccess } from '../controls/operator-access.js';
import { GatewayError, isGatewayError } from '../errors/gateway-error.js';
import { errorOutcomeResponse } from './error-outcome.js';
import type { GatewayContext } from './gateway-context.js';
import { credentialOutage } from './credential-outage.js';
import { currentScope } from './request-scope.js';
import { rootFieldsAuthError, routeAuthError } from './route-access.js';
import { restErrorOutcome } from './sofa-error-handler.js';

export interface AuthFirstOptions {
  authenticator: Authenticator;
  operator: OperatorAccess;
  logger: Logger;
}

/**
 * Authentication before validation, on every transport. A non-public REST route answers its 401
 * before its body is read (no argument names reach an anonymous caller); a GraphQL operation over
 * HTTP, SSE or graphql-ws is refused before its variables are coerced when a root field needs a
 * credential or scope the caller lacks. The resolved credential is kept for the resolvers.
 */
export function useAuthFirst(options: AuthFirstOptions): Plugin<GatewayContext> {
  return {
    async onRequest({ request, endResponse }) {
      const scope = currentScope();
      if (!scope?.route) return;
      scope.auth ??= new RequestAuth(options.authenticator, request.headers.get('authorization'));
      let refusal;
      try {
        refusal = await routeAuthError(scope.route, scope.auth, options.operator);
      } catch (err) {
        return endResponse(errorOutcomeResponse(credentialOutage(err, scope, options.logger)));
      }
      if (refusal) endResponse(errorOutcomeResponse(restErrorOutcome([refusal], scope, options.logger)));
    },
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
async function graphqlRefusal(args: ExecutionArgs, options: AuthFirstOptions): Promise<GraphQLError | undefined> {
  const ctx = args.contextValue as GatewayContext;
  try {
    return await rootFieldsAuthError(args.schema, args.document, args.operationName, ctx.auth, options.operator);
  } catch (err) {
    if (isGatewayError(err)) return err;
    options.logger.error({ err, requestId: ctx.http?.requestId }, 'credential check failed');
    return new GatewayError(503, 'POLICY_UNAVAILABLE', 'The credential could not be checked; retry shortly.', { retryable: true });
  }
}
