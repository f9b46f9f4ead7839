import type { ServedRoute } from '../../contract/route-table.js';
import type { Answer } from './answer.js';
import type { Exchange } from './exchange.js';

/** What a stage gives back: an answer that ends the request, or nothing to go on. */
export type StageResult = Answer | undefined;

/**
 * One step every request of the routes it applies to goes through, in the one order of
 * gateway-stages.ts. A stage refuses (returns an answer) or notes what it decided on the exchange.
 */
export interface Stage {
  readonly name: string;
  /** Decided once per route at start: a request only meets the stages of its route. */
  appliesTo(route: ServedRoute): boolean;
  run(exchange: Exchange): StageResult | Promise<StageResult>;
}

/**
 * Runs stages in order until one answers. Synchronous while they are (a public read whose
 * stages all decide at once never waits for a promise); from the first promise on, asynchronous.
 */
export function runStages(stages: readonly Stage[], exchange: Exchange, from = 0): StageResult | Promise<StageResult> {
  for (let i = from; i < stages.length; i++) {
    const result = stages[i]!.run(exchange);
    if (result instanceof Promise) return result.then((answer) => answer ?? runStages(stages, exchange, i + 1));
    if (result) return result;
  }
  return undefined;
}
