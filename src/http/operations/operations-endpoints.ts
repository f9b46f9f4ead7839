import { timingSafeEqual } from 'node:crypto';
import { metricsTokenRequired } from '../../errors/auth-refusals.js';
import { internalError, notReady } from '../../errors/availability-refusals.js';
import { refusalAnswer, type Answer } from '../pipeline/answer.js';
import type { Exchange } from '../pipeline/exchange.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { readinessProblems, type ReadinessDeps } from './readiness.js';

export interface OperationsDeps {
  readiness: ReadinessDeps;
  metrics: GatewayMetrics;
  /** Bearer token /metrics requires; undefined leaves it open. */
  metricsToken: string | undefined;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

/** The internal routes (never rate limited, in neither contract document): liveness, readiness, metrics. */
export function operationsEndpoints(deps: OperationsDeps) {
  const json = (exchange: Exchange, status: number, body: unknown): Answer => ({
    status,
    headers: { ...JSON_HEADERS, 'x-request-id': exchange.requestId },
    body: JSON.stringify(body),
  });
  return {
    health: (exchange: Exchange): Answer => json(exchange, 200, { status: 'ok' }),

    async readiness(exchange: Exchange): Promise<Answer> {
      const problems = await readinessProblems(deps.readiness);
      return problems.length === 0 ? json(exchange, 200, { status: 'ready' }) : refusalAnswer(exchange, notReady(problems));
    },

    async metrics(exchange: Exchange): Promise<Answer> {
      if (!tokenMatches(deps.metricsToken, exchange.header('authorization'))) return refusalAnswer(exchange, metricsTokenRequired());
      try {
        const text = await deps.metrics.text();
        return {
          status: 200,
          headers: { 'content-type': deps.metrics.contentType, 'cache-control': 'no-store', 'x-request-id': exchange.requestId },
          body: text,
        };
      } catch {
        return refusalAnswer(exchange, internalError('Metrics could not be collected.'));
      }
    },
  };
}

function tokenMatches(token: string | undefined, authorization: string | undefined): boolean {
  if (token === undefined) return true;
  const presented = Buffer.from(authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
