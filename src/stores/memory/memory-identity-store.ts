import type { Account, ApiKeyRecord } from '../../auth/identity.js';
import type { IdentityStore } from '../../auth/identity-store.js';

export interface IdentitySnapshot {
  accounts: Account[];
  apiKeys: ApiKeyRecord[];
}

export class MemoryIdentityStore implements IdentityStore {
  protected accounts = new Map<string, Account>();
  protected keys = new Map<string, ApiKeyRecord>();
  protected keysByHash = new Map<string, ApiKeyRecord>();

  async getAccount(id: string) {
    return this.accounts.get(id);
  }
  async putAccount(account: Account) {
    this.accounts.set(account.id, structuredClone(account));
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

  protected load(snapshot: IdentitySnapshot): void {
    this.accounts = new Map();
    this.keys = new Map();
    this.keysByHash = new Map();
    for (const a of snapshot.accounts) this.accounts.set(a.id, a);
    for (const k of snapshot.apiKeys) {
      this.keys.set(k.id, k);
      this.keysByHash.set(k.sha256, k);
    }
  }

  protected snapshot(): IdentitySnapshot {
    return { accounts: [...this.accounts.values()], apiKeys: [...this.keys.values()] };
  }
}
