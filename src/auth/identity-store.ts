import type { Account, ApiKeyRecord } from './identity.js';

/** Accounts and their API keys. Keys are found by the SHA-256 of the secret. */
export interface IdentityStore {
  getAccount(id: string): Promise<Account | undefined>;
  putAccount(account: Account): Promise<void>;
  /** Creates the account only if no account has its id (atomic across replicas); false when one did. */
  createAccount(account: Account): Promise<boolean>;
  listAccounts(): Promise<Account[]>;
  findKeyByHash(sha256: string): Promise<ApiKeyRecord | undefined>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** Creates or replaces a key record. */
  putKey(key: ApiKeyRecord): Promise<void>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; returns it, or undefined when there is no such key. */
  revokeKey(id: string, at: string): Promise<ApiKeyRecord | undefined>;
}
