import { GATE_STATUS } from './gate-refusals.js';
import { GatewayError } from './gateway-error.js';

const NEXT_ACTION = {
  INSUFFICIENT_BALANCE: "Fund the venue account or reduce the amount; the venue's reason is in details.venueReason.",
  VENUE_UNHEALTHY: 'Retry with jitter after Retry-After; the venue refused it for now and nothing was placed.',
  POLICY_DENIED: "Change the order as the venue's rule in details.venueReason asks; nothing was placed.",
} as const;

/**
 * A real venue refused an order or a cancel (nothing was placed or changed there): the public
 * code it maps to, the venue's own reason in `details.venueReason`, the execution it was for.
 */
export function venueRefused(
  code: 'INSUFFICIENT_BALANCE' | 'VENUE_UNHEALTHY' | 'POLICY_DENIED' | 'INVALID_REQUEST',
  venue: string,
  venueReason: string,
  context: { executionId?: string; retryAfterSeconds?: number } = {},
): GatewayError {
  const details = { gate: 'venue', check: 'venue_refusal', venue, venueReason, ...(context.executionId ? { executionId: context.executionId } : {}) };
  if (code === 'INVALID_REQUEST') {
    return new GatewayError(400, 'invalid_request', `'assetIn' was refused by ${venue}: ${venueReason}`, {
      details: { field: 'assetIn', ...details },
      retryable: false,
    });
  }
  const status = GATE_STATUS[code];
  return new GatewayError(status, code, `${venue} refused the order: ${venueReason}`, {
    details,
    retryable: status === 503,
    ...(status === 503 ? { retryAfter: context.retryAfterSeconds ?? 5 } : {}),
    nextAction: NEXT_ACTION[code],
  });
}
