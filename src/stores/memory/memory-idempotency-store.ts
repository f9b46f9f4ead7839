import type { ClaimResult, IdempotencyStore } from '../../execution/execution-stores.js';
import { Expiring, type Now } from './expiring.js';

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
