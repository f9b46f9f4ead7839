import type { Logger } from 'pino';
import { isPolicyStoreOutage, policyUnavailable } from '../execution/executions.js';
import type { ErrorOutcome } from './error-outcome.js';
import type { RequestScope } from './request-scope.js';
import { restErrorOutcome } from './sofa-error-handler.js';

/**
 * The answer when a presented credential cannot be checked (the identity store is unreachable):
 * on the execute route the spec's fail-closed POLICY_UNAVAILABLE (nothing was executed),
 * elsewhere (previews and approvals too) the store's own 503; never the thrown error's text.
 */
export function credentialOutage(err: unknown, scope: RequestScope | undefined, logger: Logger): ErrorOutcome {
  const error = scope?.route?.workflow === 'execute' && isPolicyStoreOutage(err) ? policyUnavailable() : err;
  if (isPolicyStoreOutage(err))
    logger.warn({ requestId: scope?.requestId, route: scope?.route?.operationId }, 'credential could not be checked: shared state unreachable');
  return restErrorOutcome([error], scope, logger);
}
