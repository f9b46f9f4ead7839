import type { WalletSession, WalletSessionStore } from '../../auth/wallet-session-store.js';
import { Expiring, type Now } from './expiring.js';

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
    this.sessions.set(tokenHash, structuredClone(session), ttlMs);
  }
  async getSession(tokenHash: string) {
    const s = this.sessions.get(tokenHash);
    return s && structuredClone(s);
  }
  async revokeSessions(accountId: string) {
    for (const [k, s] of this.sessions.entries()) if (s.accountId === accountId) this.sessions.delete(k);
  }
}
