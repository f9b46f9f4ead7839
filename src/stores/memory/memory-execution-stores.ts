import { Decimal } from '../../domain/decimal.js';
import { auditHash, GENESIS_HASH } from '../../execution/audit-chain.js';
import type { AgentSession, Approval, AuditEntry, Execution, WalletSession } from '../../execution/execution-types.js';
import { quantize } from '../../domain/ledger-units.js';
import type {
  AgentSessionStore,
  ApprovalStore,
  AuditStore,
  ClaimResult,
  ExecutionStore,
  IdempotencyStore,
  LedgerStore,
  WalletSessionStore,
} from '../../execution/execution-stores.js';

const clone = <T>(v: T): T => structuredClone(v);

type Now = () => number;

/** Entries with an expiry that vanish when it passes, as Redis keys with a TTL do. */
class Expiring<V> {
  private readonly map = new Map<string, { value: V; expiresAt: number }>();
  constructor(private readonly now: Now) {}
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e.value;
  }
  set(key: string, value: V, ttlMs: number): void {
    this.map.set(key, { value, expiresAt: this.now() + ttlMs });
  }
  delete(key: string): void {
    this.map.delete(key);
  }
  entries(): [string, V][] {
    return [...this.map.keys()].flatMap((k) => {
      const v = this.get(k);
      return v === undefined ? [] : [[k, v] as [string, V]];
    });
  }
}

export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records: Expiring<{ fingerprint: string; value: string | null }>;
  constructor(now: Now = Date.now) {
    this.records = new Expiring(now);
  }
  async claim(key: string, fingerprint: string, ttlMs: number): Promise<ClaimResult> {
    const existing = this.records.get(key);
    if (existing) return { claimed: false, ...existing };
    this.records.set(key, { fingerprint, value: null }, ttlMs);
    return { claimed: true };
  }
  async get(key: string) {
    return this.records.get(key);
  }
  async complete(key: string, fingerprint: string, value: string, ttlMs: number): Promise<void> {
    this.records.set(key, { fingerprint, value }, ttlMs);
  }
  async release(key: string, fingerprint: string): Promise<void> {
    if (this.records.get(key)?.fingerprint === fingerprint) this.records.delete(key);
  }
}

export class MemoryApprovalStore implements ApprovalStore {
  private readonly approvals = new Map<string, Approval>();
  async create(a: Approval) {
    this.approvals.set(a.id, clone(a));
  }
  async get(id: string) {
    const a = this.approvals.get(id);
    return a && clone(a);
  }
  async decide(id: string, to: 'approved' | 'rejected', now: number) {
    const a = this.approvals.get(id);
    if (!a || a.state !== 'pending' || a.expiresAt <= now) return undefined;
    a.state = to;
    a.decidedAt = now;
    return clone(a);
  }
  async consume(id: string, hash: string, executionId: string, now: number) {
    const a = this.approvals.get(id);
    if (!a) return 'not_found' as const;
    if (a.state === 'consumed') return 'already_consumed' as const;
    if (a.state !== 'approved') return 'not_approved' as const;
    if (a.expiresAt <= now) return 'expired' as const;
    if (a.instructionHash !== hash) return 'hash_mismatch' as const;
    a.state = 'consumed';
    a.consumedAt = now;
    a.executionId = executionId;
    return 'consumed' as const;
  }
}

export class MemoryExecutionStore implements ExecutionStore {
  private readonly executions = new Map<string, Execution>();
  private readonly byReference = new Map<string, string>();
  async create(e: Execution) {
    this.executions.set(e.id, clone(e));
    this.byReference.set(`${e.accountId}|${e.referenceId}`, e.id);
  }
  async get(id: string) {
    const e = this.executions.get(id);
    return e && clone(e);
  }
  async update(e: Execution) {
    this.executions.set(e.id, clone(e));
  }
  async findByReference(accountId: string, referenceId: string) {
    const id = this.byReference.get(`${accountId}|${referenceId}`);
    return id ? this.get(id) : undefined;
  }
}

export class MemoryAgentSessionStore implements AgentSessionStore {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly spend: Expiring<string>;
  constructor(now: Now = Date.now) {
    this.spend = new Expiring(now);
  }
  async put(s: AgentSession) {
    this.sessions.set(s.id, clone(s));
  }
  async get(id: string) {
    const s = this.sessions.get(id);
    return s && clone(s);
  }
  async list(accountId: string) {
    return [...this.sessions.values()].filter((s) => s.accountId === accountId).map(clone);
  }
  async addSpend(sessionId: string, periodStart: number, amount: string, cap: string, ttlMs: number) {
    const key = `${sessionId}|${periodStart}`;
    const spent = new Decimal(this.spend.get(key) ?? '0');
    const next = spent.plus(amount);
    if (next.gt(cap)) return { ok: false, spent: spent.toString() };
    this.spend.set(key, next.toString(), ttlMs);
    return { ok: true, spent: next.toString() };
  }
}

export class MemoryWalletSessionStore implements WalletSessionStore {
  private readonly nonces: Expiring<true>;
  private readonly sessions: Expiring<WalletSession>;
  constructor(now: Now = Date.now) {
    this.nonces = new Expiring(now);
    this.sessions = new Expiring(now);
  }
  async putNonce(nonce: string, ttlMs: number) {
    this.nonces.set(nonce, true, ttlMs);
  }
  async consumeNonce(nonce: string) {
    if (!this.nonces.get(nonce)) return false;
    this.nonces.delete(nonce);
    return true;
  }
  async putSession(tokenHash: string, session: WalletSession, ttlMs: number) {
    this.sessions.set(tokenHash, clone(session), ttlMs);
  }
  async getSession(tokenHash: string) {
    const s = this.sessions.get(tokenHash);
    return s && clone(s);
  }
  async revokeSessions(accountId: string) {
    for (const [k, s] of this.sessions.entries()) if (s.accountId === accountId) this.sessions.delete(k);
  }
}

export class MemoryLedgerStore implements LedgerStore {
  private readonly ledgers = new Map<string, Map<string, Decimal>>();
  async balances(accountId: string) {
    const l = this.ledgers.get(accountId);
    return l && Object.fromEntries([...l].map(([k, v]) => [k, v.toString()]));
  }
  async seed(accountId: string, balances: Record<string, string>) {
    if (!this.ledgers.has(accountId)) this.ledgers.set(accountId, new Map(Object.entries(balances).map(([k, v]) => [k, new Decimal(quantize(v))])));
  }
  async apply(accountId: string, changes: Record<string, string>, mayGoNegative: readonly string[]) {
    const l = this.ledgers.get(accountId) ?? new Map<string, Decimal>();
    const next = new Map(l);
    for (const [token, delta] of Object.entries(changes)) {
      const value = (next.get(token) ?? new Decimal(0)).plus(quantize(delta));
      if (value.isNeg() && !mayGoNegative.includes(token)) {
        return { ok: false as const, token, available: (l.get(token) ?? new Decimal(0)).toString(), required: new Decimal(quantize(delta)).neg().toString() };
      }
      next.set(token, value);
    }
    this.ledgers.set(accountId, next);
    return { ok: true as const };
  }
}

export class MemoryAuditStore implements AuditStore {
  private readonly chains = new Map<string, AuditEntry[]>();
  async append(accountId: string, entry: Omit<AuditEntry, 'seq' | 'prevHash' | 'hash' | 'accountId'>) {
    let chain = this.chains.get(accountId);
    if (!chain) this.chains.set(accountId, (chain = []));
    const prev = chain[chain.length - 1];
    const body = { ...entry, accountId, seq: (prev?.seq ?? 0) + 1, prevHash: prev?.hash ?? GENESIS_HASH };
    const full: AuditEntry = { ...body, hash: auditHash(body) };
    chain.push(full);
    return clone(full);
  }
  async list(accountId: string, limit: number) {
    return (this.chains.get(accountId) ?? []).slice(-limit).map(clone);
  }
}
