import { starting } from '../../../errors/availability-refusals.js';
import type { LifecycleState } from '../../operations/readiness.js';
import { refusalAnswer } from '../answer.js';
import type { Stage } from '../stage.js';

/**
 * Until start-up is done (stores connected, history backfilled), every route but the probes and
 * the metrics answers 503 `starting` with Retry-After: the port is bound first, so a port in use
 * fails before anything is touched.
 */
export function startingStage(lifecycle: LifecycleState): Stage {
  return {
    name: 'starting',
    appliesTo: (route) => route.serves !== 'health' && route.serves !== 'readiness' && route.serves !== 'metrics',
    run: (exchange) => (lifecycle.started ? undefined : refusalAnswer(exchange, starting())),
  };
}
