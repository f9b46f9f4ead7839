import { randomUUID } from 'node:crypto';
import type { IdentityStore } from './identity-store.js';
import { newApiKey, sha256Hex } from './api-key-secret.js';
import { SCOPES, type Account, type ApiKeyRecord, type Scope } from './identity.js';

/** Creates a key for an account; the secret is returned once and only its hash is stored. */
export async function issueApiKey(
  store: IdentityStore,
  accountId: string,
  scopes: readonly Scope[],
  label: string | null,
  now: string,
): Promise<{ secret: string; record: ApiKeyRecord }> {
  if (!(await store.getAccount(accountId))) throw new Error(`no account '${accountId}'`);
  const secret = newApiKey();
  const record: ApiKeyRecord = {
    id: `key_${randomUUID().slice(0, 8)}`,
    accountId,
    sha256: sha256Hex(secret),
    scopes: [...new Set(scopes)],
    revoked: false,
    createdAt: now,
    revokedAt: null,
    label,
  };
  await store.putKey(record);
  return { secret, record };
}

export const DEMO_ACCOUNT: Omit<Account, 'createdAt'> = {
  id: 'demo',
  wallet: '0x000000000000000000000000000000000000dEaD',
  balances: { USDC: '100000', WETH: '10', WBTC: '1' },
};

/**
 * Outside production and without a bootstrap file, a newcomer gets a demo account and a key
 * with every scope, printed once (the first start); later starts find the account and stay quiet.
 */
export async function ensureDemoKey(store: IdentityStore, now: string): Promise<string | undefined> {
  // Create-if-absent: of replicas starting together on one store, only the one that creates the account issues the key.
  if (!(await store.createAccount({ ...DEMO_ACCOUNT, createdAt: now }))) return undefined;
  const { secret } = await issueApiKey(store, DEMO_ACCOUNT.id, SCOPES, 'demo', now);
  return secret;
}
