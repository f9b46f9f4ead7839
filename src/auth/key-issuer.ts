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

/**
 * DEVELOPMENT ONLY: the demo account's wallet is Hardhat/Anvil's account #0, whose private key
 * (0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80) is published in every
 * Ethereum toolchain: anyone can sign for it, which is the point (`npm run wallet` signs with it).
 * The demo account exists only outside production and without a bootstrap file.
 */
export const DEV_WALLET_PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

export const DEMO_ACCOUNT: Omit<Account, 'createdAt'> = {
  id: 'demo',
  wallet: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
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
