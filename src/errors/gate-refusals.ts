import { GatewayError } from './gateway-error.js';

/** Spec: public error codes of the execution gates. */
export const GATE_CODES = [
  'EXECUTION_DISABLED',
  'ACTION_NOT_CERTIFIED',
  'ACTION_CANARY_ONLY',
  'POLICY_DENIED',
  'INSUFFICIENT_BALANCE',
  'IDEMPOTENCY_CONFLICT',
  'QUOTE_STALE',
  'POLICY_UNAVAILABLE',
  'VENUE_UNHEALTHY',
] as const;
export type GateCode = (typeof GATE_CODES)[number];

/** DESIGN: Execution, status mapping. */
export const GATE_STATUS: Record<GateCode, number> = {
  EXECUTION_DISABLED: 403,
  ACTION_NOT_CERTIFIED: 403,
  ACTION_CANARY_ONLY: 403,
  POLICY_DENIED: 403,
  INSUFFICIENT_BALANCE: 403,
  IDEMPOTENCY_CONFLICT: 409,
  QUOTE_STALE: 409,
  POLICY_UNAVAILABLE: 503,
  VENUE_UNHEALTHY: 503,
};

const NEXT_ACTION: Record<GateCode, string> = {
  EXECUTION_DISABLED: 'Execution is disabled here; see GET /api/v1/capabilities.',
  ACTION_NOT_CERTIFIED: 'Choose a certified action from GET /api/v1/capabilities.',
  ACTION_CANARY_ONLY: 'This action needs canary access; use a certified action.',
  VENUE_UNHEALTHY: 'Retry with jitter once the venue is healthy; do not treat stale data as a trade signal.',
  POLICY_DENIED: 'Interactive: create and approve an approval, then submit with its approvalId. API key: activate an agent session covering this order.',
  POLICY_UNAVAILABLE: 'Policy could not be checked and nothing was executed; retry later.',
  QUOTE_STALE: 'Call POST /api/v1/execute/preview again with the same body, then resubmit.',
  INSUFFICIENT_BALANCE: 'Fund the account or reduce the amount.',
  IDEMPOTENCY_CONFLICT: 'Use a new referenceId, or read the execution by referenceId before any retry.',
};

/**
 * The spec's refusal for a gate code, with the status and next action the code has everywhere;
 * `details` names the internal gate and check (the only place they appear).
 */
export function gateRefusal(code: GateCode, reason: string, details: Record<string, unknown> = {}, nextAction = NEXT_ACTION[code]): GatewayError {
  const status = GATE_STATUS[code];
  return new GatewayError(status, code, reason, {
    details,
    retryable: status === 503 || code === 'QUOTE_STALE',
    ...(status === 503 ? { retryAfter: 5 } : {}),
    nextAction,
  });
}
