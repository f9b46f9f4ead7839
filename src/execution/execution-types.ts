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

export const EXECUTION_STATES = ['accepted', 'submitted', 'open', 'partially_filled', 'filled', 'cancelled', 'rejected', 'failed', 'unknown'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];

/**
 * States an execution ends in: `accepted` and `submitted` are on the way, `unknown` awaits the
 * reconciler, and `open` rests at a real venue. A `partially_filled` order still resting at its
 * venue (`order.resting`) is not over either: see isSettled.
 */
export const isFinalState = (s: ExecutionState): boolean =>
  s === 'filled' || s === 'partially_filled' || s === 'cancelled' || s === 'rejected' || s === 'failed';

/** Whether nothing more can happen to an execution: a final state, and no rest of its order left at the venue. */
export const isSettled = (e: Pick<Execution, 'state' | 'order'>): boolean => isFinalState(e.state) && !e.order?.resting;

/** States whose outcome the reconciler finishes (the request could not, or the venue did not confirm). */
export const awaitsReconciler = (s: ExecutionState): boolean => s === 'accepted' || s === 'submitted' || s === 'unknown';

/** An order routed to a real venue: its client order id (derived from the account and the referenceId) and what the venue holds. */
export interface RoutedOrderRef {
  clientOrderId: string;
  /** The market it trades and its size (base units), for lookups and fills. */
  marketId: string;
  side: 'buy' | 'sell';
  amount: string;
  /** The venue's own id, once it answered. */
  venueOrderId: string | null;
  /** Whether part of the order still rests at the venue (open, or partially filled and open). */
  resting: boolean;
}

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
  /** Set once the order is routed to a real venue (before it is sent); absent on the paper venues. */
  order?: RoutedOrderRef | null;
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
