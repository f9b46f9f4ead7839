import type { GatewayError } from '../errors/gateway-error.js';
import { gateRefusal, type GateCode } from '../errors/gate-refusals.js';

/** The gates (DESIGN: Execution); names are internal, for `details` only. Their order is the list in gates.ts. */
export const GATE_NAMES = ['feature_flag', 'certification', 'venue', 'idempotency', 'authority', 'quote', 'balance'] as const;
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

export const pass = (gate: GateName, reason = 'ok'): GateVerdict => ({ gate, status: 'pass', code: null, check: null, reason });
export const notEvaluated = (gate: GateName, reason: string): GateVerdict => ({ gate, status: 'not_evaluated', code: null, check: null, reason });
export const block = (gate: GateName, code: GateCode, check: string, reason: string): GateVerdict => ({ gate, status: 'block', code, check, reason });

/** The spec's error for a blocking verdict; internal gate names appear only in `details`. */
export function gateError(v: GateVerdict, extra: Record<string, unknown> = {}): GatewayError {
  return gateRefusal(v.code ?? 'POLICY_DENIED', v.reason, { gate: v.gate, check: v.check, ...extra });
}
