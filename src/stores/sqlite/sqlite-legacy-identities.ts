import type { Account, ApiKeyRecord } from '../../auth/identity.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqliteDatabase } from './sqlite-database.js';

/** The legacy JSON file's shape (before gateway.db). */
interface IdentitySnapshot {
  accounts: Account[];
  apiKeys: ApiKeyRecord[];
}

/** The file where embedded mode kept accounts and key hashes before the database. */
export const LEGACY_IDENTITIES_FILE = 'identities.json';
const DECIDED = 'legacy_identities_import';

/**
 * Imports a data directory's legacy identities.json into a database that has no identities yet,
 * once: the decision is recorded in `meta`, and the file is left in place, no longer read.
 */
export function importLegacyIdentities(db: SqliteDatabase, dataDir: string, now = new Date()): { accounts: number; apiKeys: number } | undefined {
  const path = join(dataDir, LEGACY_IDENTITIES_FILE);
  if (!existsSync(path)) return undefined;
  const decided = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  if (decided.get(DECIDED)) return undefined;
  const legacy = JSON.parse(readFileSync(path, 'utf8')) as Partial<IdentitySnapshot>;
  const putAccount = db.prepare<[string, string]>('INSERT INTO accounts (id, record) VALUES (?, ?)');
  const putKey = db.prepare<[string, string, string, string]>('INSERT INTO api_keys (id, account_id, sha256, record) VALUES (?, ?, ?, ?)');
  const count = (table: 'accounts' | 'api_keys') => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return db
    .transaction(() => {
      if (decided.get(DECIDED)) return undefined; // another process decided while we read the file
      const empty = count('accounts') === 0 && count('api_keys') === 0;
      const accounts = empty ? (legacy.accounts ?? []) : [];
      const apiKeys = empty ? (legacy.apiKeys ?? []) : [];
      for (const a of accounts) putAccount.run(a.id, JSON.stringify(a));
      for (const k of apiKeys) putKey.run(k.id, k.accountId, k.sha256, JSON.stringify(k));
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(
        DECIDED,
        `${empty ? 'imported' : 'skipped: database had identities'} at ${now.toISOString()}`,
      );
      return empty ? { accounts: accounts.length, apiKeys: apiKeys.length } : undefined;
    })
    .immediate();
}
