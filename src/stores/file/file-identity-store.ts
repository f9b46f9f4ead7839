import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Account, ApiKeyRecord } from '../../auth/identity.js';
import { MemoryIdentityStore, type IdentitySnapshot } from '../memory/memory-identity-store.js';

/**
 * The embedded mode's identity store: a JSON file shared by the server and the `keys` CLI.
 * Reads notice a changed file (by mtime and size), so a key revoked by the CLI is refused on
 * the very next request. Writes replace the file atomically.
 */
export class FileIdentityStore extends MemoryIdentityStore {
  private version = '';

  constructor(private readonly path: string) {
    super();
    this.refresh();
  }

  private refresh(): void {
    let stat;
    try {
      stat = statSync(this.path);
    } catch {
      return; // no file yet: empty store
    }
    const version = `${stat.mtimeMs}:${stat.size}`;
    if (version === this.version) return;
    const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as IdentitySnapshot;
    this.load({ accounts: parsed.accounts ?? [], apiKeys: parsed.apiKeys ?? [] });
    this.version = version;
  }

  private persist(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.snapshot(), null, 2), { mode: 0o600 });
    renameSync(tmp, this.path);
    const stat = statSync(this.path);
    this.version = `${stat.mtimeMs}:${stat.size}`;
  }

  override async getAccount(id: string) {
    this.refresh();
    return super.getAccount(id);
  }
  override async listAccounts() {
    this.refresh();
    return super.listAccounts();
  }
  override async findKeyByHash(sha256: string) {
    this.refresh();
    return super.findKeyByHash(sha256);
  }
  override async getKey(id: string) {
    this.refresh();
    return super.getKey(id);
  }
  override async listKeys(accountId?: string) {
    this.refresh();
    return super.listKeys(accountId);
  }
  override async putAccount(account: Account) {
    this.refresh();
    await super.putAccount(account);
    this.persist();
  }
  override async putKey(key: ApiKeyRecord) {
    this.refresh();
    await super.putKey(key);
    this.persist();
  }
  override async revokeKey(id: string, at: string) {
    this.refresh();
    const key = await super.revokeKey(id, at);
    if (key) this.persist();
    return key;
  }
}
