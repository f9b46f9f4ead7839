import type { Logger } from 'pino';
import { currentScope } from '../context/request-scope.js';

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Yoga's log calls in pino: an Error argument goes under `err` (pino serialises its message, stack
 * and cause; inside `args` it would print as `{}`), with the request id, so every masked error can
 * be found from the id the client was given.
 */
export function yogaLogging(logger: Logger): Record<Level, (...args: unknown[]) => void> {
  const at =
    (level: Level) =>
    (...args: unknown[]) => {
      const err = args.find((a) => a instanceof Error);
      const rest = args.filter((a) => a !== err);
      logger[level]({ ...(err ? { err } : {}), ...(rest.length > 0 ? { args: rest } : {}), requestId: currentScope()?.requestId }, 'yoga');
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
