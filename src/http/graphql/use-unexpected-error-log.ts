import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { GatewayContext } from '../context/gateway-context.js';

/**
 * Logs each unexpected error of an execution (a resolver that threw anything but a GraphQL
 * error) with the request id the client was given, before Yoga masks it as "Unexpected error."
 * for the client; REST routes and GraphQL alike run through this execute.
 */
export function useUnexpectedErrorLog(logger: Logger): Plugin<GatewayContext> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const requestId = (args.contextValue as GatewayContext | undefined)?.http?.requestId;
      const log = (result: unknown) => {
        if (isAsyncIterable(result)) return result;
        for (const error of (result as ExecutionResult).errors ?? []) {
          const original = error.originalError;
          if (original && !(original instanceof GraphQLError)) logger.error({ err: original, requestId, path: error.path }, 'unexpected error in an operation');
        }
        return result;
      };
      setExecuteFn((execArgs) => {
        const result = executeFn(execArgs);
        return result instanceof Promise ? result.then(log) : log(result);
      });
    },
  };
}
