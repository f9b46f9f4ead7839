import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { RequestAuth, type Authenticator } from '../auth/authenticator.js';
import type { OperatorAccess } from '../controls/operator-access.js';
import { GatewayError, isGatewayError } from '../errors/gateway-error.js';
import { isPolicyStoreOutage, policyUnavailable } from '../execution/executions.js';
import { errorOutcomeResponse } from './error-outcome.js';
import type { GatewayContext } from './gateway-context.js';
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
      // An outage of the identity store while checking is answered in the error shape too (503, fail closed).
      // On an execution step that is the spec's POLICY_UNAVAILABLE: nothing runs.
      const route = scope.route;
      const refusal = await routeAuthError(route, scope.auth, options.operator).catch((err: unknown) =>
        route.workflow && isPolicyStoreOutage(err) ? policyUnavailable() : err,
      );
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

/** The root-field check of one GraphQL operation; an outage while checking refuses it (a GatewayError as is, anything else masked and logged). */
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
