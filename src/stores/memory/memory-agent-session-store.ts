import { Decimal } from '../../domain/decimal.js';
import type { AgentSessionStore } from '../../execution/execution-stores.js';
import type { AgentSession } from '../../execution/execution-types.js';
import { Expiring, type Now } from './expiring.js';

export class MemoryAgentSessionStore implements AgentSessionStore {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly spend: Expiring<string>;
  private readonly entries = new Map<string, { amount: string; ttlMs: number }>();
  constructor(now: Now = Date.now) {
    this.spend = new Expiring(now);
  }
  async put(s: AgentSession) {
    this.sessions.set(s.id, structuredClone(s));
  }
  async get(id: string) {
    const s = this.sessions.get(id);
    return s && structuredClone(s);
  }
  async list(accountId: string) {
    return [...this.sessions.values()].filter((s) => s.accountId === accountId).map((x) => structuredClone(x));
  }
  async addSpend(sessionId: string, periodStart: number, amount: string, cap: string, ttlMs: number, entryId?: string) {
    const key = `${sessionId}|${periodStart}`;
    const spent = new Decimal(this.spend.get(key) ?? '0');
    const next = spent.plus(amount);
    if (next.gt(cap)) return { ok: false, spent: spent.toString() };
    this.spend.set(key, next.toString(), ttlMs);
    if (entryId) this.entries.set(`${key}|${entryId}`, { amount, ttlMs });
    return { ok: true, spent: next.toString() };
  }
  async spent(sessionId: string, periodStart: number) {
    return new Decimal(this.spend.get(`${sessionId}|${periodStart}`) ?? '0').toString();
  }
  async settleSpend(sessionId: string, periodStart: number, entryId: string, amount: string) {
    const key = `${sessionId}|${periodStart}`;
    const entry = this.entries.get(`${key}|${entryId}`);
    if (!entry) return;
    const next = new Decimal(this.spend.get(key) ?? '0').plus(amount).minus(entry.amount);
    this.spend.set(key, Decimal.max(next, 0).toString(), entry.ttlMs);
    this.entries.set(`${key}|${entryId}`, { ...entry, amount });
  }
}
