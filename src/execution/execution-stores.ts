import type { WalletSessionStore } from '../auth/wallet-session-store.js';
import type { AgentSession, Approval, AuditEntry, Execution } from './execution-types.js';
import type { ListQuery } from './record-listing.js';

/** Outcome of an idempotency claim: a new claim, or what already holds the key. */
export type ClaimResult = { claimed: true } | { claimed: false; fingerprint: string; value: string | null };

/**
 * Idempotency records: a key is claimed once (SET NX) with the request's fingerprint, then
 * completed with the result. A concurrent second claim sees the first, whatever the replica.
 */
export interface IdempotencyStore {
  claim(key: string, fingerprint: string, ttlMs: number): Promise<ClaimResult>;
  get(key: string): Promise<{ fingerprint: string; value: string | null } | undefined>;
  complete(key: string, fingerprint: string, value: string, ttlMs: number): Promise<void>;
  /** Drops a claim that led nowhere (a refusal before anything happened). */
  release(key: string, fingerprint: string): Promise<void>;
}

export interface ApprovalStore {
  create(approval: Approval): Promise<void>;
  get(id: string): Promise<Approval | undefined>;
  /** Moves a pending, unexpired approval to approved or rejected; undefined when it was not pending. */
  decide(id: string, to: 'approved' | 'rejected', now: number): Promise<Approval | undefined>;
  /**
   * Consumes an approved, unexpired approval of exactly this instruction, atomically: of any
   * number of concurrent callers at most one gets `consumed`.
   */
  consume(
    id: string,
    instructionHash: string,
    executionId: string,
    now: number,
  ): Promise<'consumed' | 'not_found' | 'not_approved' | 'expired' | 'hash_mismatch' | 'already_consumed'>;
  /** Gives back an approval consumed by `executionId` whose order never reached a venue; false when it was not. */
  release(id: string, executionId: string): Promise<boolean>;
  /** An account's approvals, newest first, filtered (state as read at `now`), from a position. */
  list(accountId: string, query: ListQuery): Promise<Approval[]>;
}

export interface ExecutionStore {
  create(execution: Execution): Promise<void>;
  get(id: string): Promise<Execution | undefined>;
  update(execution: Execution): Promise<void>;
  findByReference(accountId: string, referenceId: string): Promise<Execution | undefined>;
  /** Executions awaiting the reconciler (accepted, submitted, unknown). */
  listOpen(limit: number): Promise<Execution[]>;
  /** Executions whose order rests at a real venue (`order.resting`): what the order follower watches. */
  listResting(limit: number): Promise<Execution[]>;
  /** The execution of a routed order, by the client order id it was sent with. */
  findByClientOrderId(clientOrderId: string): Promise<Execution | undefined>;
  /** An account's executions, newest first, filtered, from a position. */
  list(accountId: string, query: ListQuery): Promise<Execution[]>;
}

export interface AgentSessionStore {
  put(session: AgentSession): Promise<void>;
  get(id: string): Promise<AgentSession | undefined>;
  list(accountId: string): Promise<AgentSession[]>;
  /** Adds notional to the session's period counter unless it would pass `cap`; atomic. */
  addSpend(sessionId: string, periodStart: number, amount: string, cap: string, ttlMs: number, entryId?: string): Promise<{ ok: boolean; spent: string }>;
  /**
   * Sets what the entry `entryId` (an execution) counts in its period to `amount` (0 gives it
   * back), moving the counter by the difference; nothing when the entry was never counted. Idempotent.
   */
  settleSpend(sessionId: string, periodStart: number, entryId: string, amount: string): Promise<void>;
  /** What the session's period has counted so far (USD). */
  spent(sessionId: string, periodStart: number): Promise<string>;
}

/** Paper balances per account, kept to 8 decimals; changes apply atomically or not at all. */
export interface LedgerStore {
  balances(accountId: string): Promise<Record<string, string> | undefined>;
  /** Seeds an account's ledger once (from its configured balances); later calls do nothing. */
  seed(accountId: string, balances: Record<string, string>): Promise<void>;
  /**
   * Applies signed changes; refuses the whole change when a key not in `mayGoNegative` would
   * fall below zero, naming the first short token.
   */
  apply(
    accountId: string,
    changes: Record<string, string>,
    mayGoNegative: readonly string[],
  ): Promise<{ ok: true } | { ok: false; token: string; available: string; required: string }>;
  /**
   * A paper venue's booking of one order under its client order id, atomically with its ledger
   * changes: applied at most once. When the id already holds a record (a booking, or a void by
   * the reconciler) nothing changes and that record is returned; with `replacing`, books only
   * over exactly that record (an undo).
   */
  book(accountId: string, orderId: string, booking: Booking): Promise<BookResult>;
  /** The venue's record of a client order id, if any. */
  order(accountId: string, orderId: string): Promise<string | undefined>;
}

export interface Booking {
  changes: Record<string, string>;
  mayGoNegative: readonly string[];
  record: string;
  replacing?: string;
}

export type BookResult =
  | { booked: true }
  | { booked: false; existing: string }
  | { booked: false; existing?: undefined; short: { token: string; available: string; required: string } };

/** Append-only, hash-chained per account. */
export interface AuditStore {
  append(accountId: string, entry: Omit<AuditEntry, 'seq' | 'prevHash' | 'hash' | 'accountId'>): Promise<AuditEntry>;
  /** The most recent `limit` entries (before `beforeSeq` when given), oldest first. */
  list(accountId: string, limit: number, beforeSeq?: number): Promise<AuditEntry[]>;
}

/** The stores of the execution plane: the policy store (approvals, sessions) and its records. */
export interface ExecutionStores {
  idempotency: IdempotencyStore;
  approvals: ApprovalStore;
  executions: ExecutionStore;
  agentSessions: AgentSessionStore;
  walletSessions: WalletSessionStore;
  ledger: LedgerStore;
  audit: AuditStore;
}
