import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Yoga's log calls in pino: an Error argument goes under `err` (pino serialises its message, stack
 * and cause; inside `args` it would print as `{}`). An error Yoga masks after an execution is not
 * written again here: useUnexpectedErrorLog wrote it with the request id the client was given.
 */
export function yogaLogging(logger: Logger): Record<Level, (...args: unknown[]) => void> {
  const at =
    (level: Level) =>
    (...args: unknown[]) => {
      const err = args.find((a) => a instanceof Error);
      if (level === 'error' && err instanceof GraphQLError && err.originalError && err.path) return;
      const rest = args.filter((a) => a !== err);
      logger[level]({ ...(err ? { err } : {}), ...(rest.length > 0 ? { args: rest } : {}) }, 'yoga');
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
