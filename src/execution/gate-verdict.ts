import { GatewayError } from '../errors/gateway-error.js';

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

/** The gates (DESIGN: Execution); names are internal, for `details` only. Their order is the list in gates.ts. */
export const GATE_NAMES = ['feature_flag', 'certification', 'venue', 'authority', 'quote', 'balance', 'idempotency'] as const;
export type GateName = (typeof GATE_NAMES)[number];

export const GATE_STATUSES = ['pass', 'block', 'not_evaluated'] as const;

export interface GateVerdict {
  gate: GateName;
  /** `not_evaluated`: an earlier gate blocks, so this one could not be judged (preview only). */
  status: (typeof GATE_STATUSES)[number];
  code: GateCode | null;
  /** Internal check within the gate (kill_switch, approval, agent_session, ...). */
  check: string | null;
  reason: string;
}

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

export const pass = (gate: GateName, reason = 'ok'): GateVerdict => ({ gate, status: 'pass', code: null, check: null, reason });
export const notEvaluated = (gate: GateName, reason: string): GateVerdict => ({ gate, status: 'not_evaluated', code: null, check: null, reason });
export const block = (gate: GateName, code: GateCode, check: string, reason: string): GateVerdict => ({ gate, status: 'block', code, check, reason });

/** The spec's error for a blocking verdict; internal gate names appear only in `details`. */
export function gateError(v: GateVerdict, extra: Record<string, unknown> = {}): GatewayError {
  const code = v.code ?? 'POLICY_DENIED';
  const status = GATE_STATUS[code];
  return new GatewayError(status, code, v.reason, {
    details: { gate: v.gate, check: v.check, ...extra },
    retryable: status === 503 || code === 'QUOTE_STALE',
    ...(status === 503 ? { retryAfter: 5 } : {}),
    nextAction: NEXT_ACTION[code],
  });
}
