import type { Logger } from 'pino';
import type { ServedRoute } from '../../contract/route-table.js';
import { isPolicyStoreOutage, policyUnavailable } from '../../execution/executions.js';
import type { Exchange } from './exchange.js';
import { refusalAnswer, type Answer } from './answer.js';
import { restRefusal } from './rest-refusal.js';

/**
 * The answer when a presented credential cannot be checked (the identity store is unreachable):
 * on the execute route the spec's fail-closed POLICY_UNAVAILABLE (nothing was executed),
 * elsewhere (previews and approvals too) the store's own 503; never the thrown error's text.
 */
export function credentialOutage(err: unknown, exchange: Exchange, logger: Logger): Answer {
  const executes = isExecuteRoute(exchange.route);
  if (isPolicyStoreOutage(err))
    logger.warn({ requestId: exchange.requestId, route: exchange.route.template }, 'credential could not be checked: shared state unreachable');
  return refusalAnswer(exchange, executes && isPolicyStoreOutage(err) ? policyUnavailable() : restRefusal([err], exchange, logger));
}

function isExecuteRoute(route: ServedRoute): boolean {
  return route.serves === 'contract' && route.spec.workflow === 'execute';
}
