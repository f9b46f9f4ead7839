import { GatewayError } from './gateway-error.js';

/** A rate-limit policy as the refusal names it. */
export interface RefusedPolicy {
  name: string;
  points: number;
  windowSeconds: number;
}

/** 429 with the spec's retryAfter and Retry-After, naming the policy. */
export function rateLimited(policy: RefusedPolicy, resetSeconds: number, headers: Readonly<Record<string, string>> = {}): GatewayError {
  return new GatewayError(429, 'rate_limited', `Too many requests; retry after ${resetSeconds} s.`, {
    retryAfter: resetSeconds,
    retryable: true,
    details: { policy: policy.name, limit: policy.points, windowSeconds: policy.windowSeconds },
    nextAction: 'Back off and retry after the rate-limit window.',
    headers,
  });
}

/** A graphql-ws socket or credential with as many open operations as it may have. */
export function tooManySubscriptions(message: string, per: string, limit: number): GatewayError {
  return new GatewayError(429, 'too_many_subscriptions', message, {
    details: { per, limit },
    retryable: true,
    nextAction: 'Complete an open subscription before starting another.',
  });
}

/** A subscription that fell too far behind its events and was ended. */
export function slowConsumer(limit: number): GatewayError {
  return new GatewayError(
    503,
    'slow_consumer',
    `This subscription fell more than ${limit} events behind and was ended; subscribe again (with lastSequence) to resume.`,
    {
      retryable: true,
      details: { limit },
      nextAction: 'Read events as they arrive; resubscribe with lastSequence to learn whether events were missed.',
    },
  );
}

/** An operation over one of the GraphQL bounds: 400 whatever the Accept header, before any execution. */
export function queryTooComplex(message: string, limit: string): GatewayError {
  return new GatewayError(400, 'query_too_complex', message, {
    details: { limit },
    retryable: false,
    nextAction: 'Split the operation into smaller ones (fewer aliases, less nesting, fewer fields).',
  });
}

/** The clean 503 a read gets when Redis is unreachable and no local copy can answer. */
export function sharedStateUnavailable(): GatewayError {
  return new GatewayError(503, 'shared_state_unavailable', 'Shared state is temporarily unreachable; retry shortly.', {
    retryable: true,
    retryAfter: 2,
    nextAction: 'Retry with jitter.',
  });
}

/** Every route but the probes while the gateway starts (listening comes before the stores connect). */
export function starting(): GatewayError {
  return new GatewayError(503, 'starting', 'The gateway is starting; retry in a moment.', { retryAfter: 1, retryable: true });
}

/** /readyz's refusal, with the reasons. */
export function notReady(reasons: readonly string[]): GatewayError {
  return new GatewayError(503, 'not_ready', `Not ready: ${reasons.join('; ')}.`, { details: { reasons }, retryable: true });
}

/** A market with no snapshot yet (or whose upstream has none): the contract's 5xx, never an invented value. */
export function marketDataUnavailable(marketId: string, retryAfter = 2): GatewayError {
  return new GatewayError(503, 'market_data_unavailable', `No snapshot of ${marketId} yet.`, { retryable: true, retryAfter });
}

/** The read-only order-book source of a market is unavailable (spec: 503 on the order-book route). */
export function orderBookUnavailable(code: string, marketId: string): GatewayError {
  return new GatewayError(503, code, `The order-book source for ${marketId} is unavailable.`, {
    retryable: true,
    retryAfter: 5,
    nextAction: 'Retry with jitter; do not treat stale data as a trade signal.',
  });
}

/** Anything unexpected: masked, logged with the request id by whoever caught it. */
export function internalError(message = 'Unexpected error.'): GatewayError {
  return new GatewayError(500, 'internal_error', message, { retryable: true });
}
