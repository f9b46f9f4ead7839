/** One line of a quote's money movement: a token and a decimal amount. */
export interface TokenAmount {
  token: string;
  amount: string;
}

export const PRINCIPAL_KINDS = ['wallet_session', 'api_key'] as const;

export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'expired', 'consumed'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** An exact, short-lived, one-time approval of one instruction (DESIGN: Execution). */
export interface Approval {
  id: string;
  accountId: string;
  wallet: string;
  instructionHash: string;
  instruction: Record<string, unknown>;
  state: ApprovalState;
  createdAt: number;
  expiresAt: number;
  decidedAt: number | null;
  consumedAt: number | null;
  /** The execution that consumed it. */
  executionId: string | null;
}

export const EXECUTION_STATES = ['accepted', 'submitted', 'filled', 'partially_filled', 'rejected', 'failed', 'unknown'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];

/** States an execution ends in; `accepted` and `submitted` are on the way, `unknown` awaits the reconciler. */
export const isFinalState = (s: ExecutionState): boolean => s === 'filled' || s === 'partially_filled' || s === 'rejected' || s === 'failed';

export interface Fill {
  price: string;
  filledAmount: string;
  requestedAmount: string;
  notional: string;
  fee: string;
  feeToken: string;
}

export interface Execution {
  id: string;
  accountId: string;
  referenceId: string;
  instructionHash: string;
  protocol: string;
  action: string;
  state: ExecutionState;
  principal: { kind: (typeof PRINCIPAL_KINDS)[number]; id: string };
  approvalId: string | null;
  agentSessionId: string | null;
  /** What the agent session's period counts for this execution (internal; settled to the fill). */
  spend?: { periodStart: number; amount: string } | null;
  fill: Fill | null;
  reason: string | null;
  createdAt: number;
  updatedAt: number;
  history: { state: ExecutionState; at: number; reason: string | null }[];
}

export interface AgentSession {
  id: string;
  accountId: string;
  apiKeyId: string;
  protocols: string[];
  actions: string[];
  assets: string[];
  /** Caps in USD notional (decimal strings). */
  maxOrderNotional: string;
  maxPeriodNotional: string;
  periodSeconds: number;
  startsAt: number;
  expiresAt: number;
  revokedAt: number | null;
  createdAt: number;
}

export interface AuditEntry {
  seq: number;
  accountId: string;
  at: string;
  type: string;
  referenceId: string | null;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}
