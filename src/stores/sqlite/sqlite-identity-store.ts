import type { Account, ApiKeyRecord } from '../../auth/identity.js';
import type { IdentityStore } from '../../auth/identity-store.js';
import type { SqliteDatabase } from './sqlite-database.js';

/**
 * Accounts and API keys in the embedded database, shared with the keys CLI: nothing is cached,
 * so a key the CLI creates or revokes applies on the gateway's next request (WAL readers see
 * every committed write).
 */
export class SqliteIdentityStore implements IdentityStore {
  private readonly readAccount;
  private readonly writeAccount;
  private readonly insertAccount;
  private readonly readAccounts;
  private readonly readKey;
  private readonly readKeyByHash;
  private readonly readKeys;
  private readonly writeKey;
  private readonly revokeTx;

  constructor(db: SqliteDatabase) {
    this.readAccount = db.prepare<[string], { record: string }>('SELECT record FROM accounts WHERE id = ?');
    this.writeAccount = db.prepare<[string, string]>('INSERT INTO accounts (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record');
    this.insertAccount = db.prepare<[string, string]>('INSERT INTO accounts (id, record) VALUES (?, ?) ON CONFLICT (id) DO NOTHING');
    this.readAccounts = db.prepare<[], { record: string }>('SELECT record FROM accounts ORDER BY rowid');
    this.readKey = db.prepare<[string], { record: string }>('SELECT record FROM api_keys WHERE id = ?');
    // Two key ids with one secret cannot come from the issuer; should a bootstrap file declare them, the newest id answers.
    this.readKeyByHash = db.prepare<[string], { record: string }>('SELECT record FROM api_keys WHERE sha256 = ? ORDER BY rowid DESC LIMIT 1');
    this.readKeys = db.prepare<[string | null, string | null], { record: string }>(
      'SELECT record FROM api_keys WHERE ? IS NULL OR account_id = ? ORDER BY rowid',
    );
    this.writeKey = db.prepare<[string, string, string, string]>(
      'INSERT INTO api_keys (id, account_id, sha256, record) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, sha256 = excluded.sha256, record = excluded.record',
    );
    this.revokeTx = db.transaction((id: string, at: string): ApiKeyRecord | undefined => {
      const key = this.keyById(id);
      if (!key) return undefined;
      const revoked: ApiKeyRecord = { ...key, revoked: true, revokedAt: key.revokedAt ?? at };
      this.putKeySync(revoked);
      return revoked;
    });
  }

  private keyById(id: string): ApiKeyRecord | undefined {
    const row = this.readKey.get(id);
    return row && (JSON.parse(row.record) as ApiKeyRecord);
  }

  private putKeySync(key: ApiKeyRecord): void {
    this.writeKey.run(key.id, key.accountId, key.sha256, JSON.stringify(key));
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const row = this.readAccount.get(id);
    return row && (JSON.parse(row.record) as Account);
  }

  async putAccount(account: Account): Promise<void> {
    this.writeAccount.run(account.id, JSON.stringify(account));
  }

  async createAccount(account: Account): Promise<boolean> {
    return this.insertAccount.run(account.id, JSON.stringify(account)).changes === 1;
  }

  async listAccounts(): Promise<Account[]> {
    return this.readAccounts.all().map((r) => JSON.parse(r.record) as Account);
  }

  async findKeyByHash(sha256: string): Promise<ApiKeyRecord | undefined> {
    const row = this.readKeyByHash.get(sha256);
    return row && (JSON.parse(row.record) as ApiKeyRecord);
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    return this.keyById(id);
  }

  async putKey(key: ApiKeyRecord): Promise<void> {
    this.putKeySync(key);
  }

  async listKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    const filter = accountId ?? null;
    return this.readKeys.all(filter, filter).map((r) => JSON.parse(r.record) as ApiKeyRecord);
  }

  async revokeKey(id: string, at: string): Promise<ApiKeyRecord | undefined> {
    return this.revokeTx.immediate(id, at);
  }
}
