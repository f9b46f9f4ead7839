import type { Account, ApiKeyRecord } from '../../auth/identity.js';
import type { IdentityStore } from '../../auth/identity-store.js';

export class MemoryIdentityStore implements IdentityStore {
  private readonly accounts = new Map<string, Account>();
  private readonly keys = new Map<string, ApiKeyRecord>();
  private readonly keysByHash = new Map<string, ApiKeyRecord>();

  async getAccount(id: string) {
    return this.accounts.get(id);
  }
  async putAccount(account: Account) {
    this.accounts.set(account.id, structuredClone(account));
  }
  async createAccount(account: Account) {
    if (this.accounts.has(account.id)) return false;
    this.accounts.set(account.id, structuredClone(account));
    return true;
  }
  async listAccounts() {
    return [...this.accounts.values()];
  }
  async findKeyByHash(sha256: string) {
    return this.keysByHash.get(sha256);
  }
  async getKey(id: string) {
    return this.keys.get(id);
  }
  async putKey(key: ApiKeyRecord) {
    const previous = this.keys.get(key.id);
    if (previous) this.keysByHash.delete(previous.sha256);
    const copy = structuredClone(key);
    this.keys.set(key.id, copy);
    this.keysByHash.set(key.sha256, copy);
  }
  async listKeys(accountId?: string) {
    return [...this.keys.values()].filter((k) => accountId === undefined || k.accountId === accountId);
  }
  async revokeKey(id: string, at: string) {
    const key = this.keys.get(id);
    if (!key) return undefined;
    await this.putKey({ ...key, revoked: true, revokedAt: key.revokedAt ?? at });
    return this.keys.get(id);
  }
}
