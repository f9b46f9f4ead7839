import { describe, expect, it } from 'vitest';
import type { Account, ApiKeyRecord } from '../../src/auth/identity.js';
import type { IdentityStore } from '../../src/auth/identity-store.js';

const account = (id: string, balances: Record<string, string> = { USDC: '10' }): Account => ({
  id,
  wallet: '0x1111111111111111111111111111111111111111',
  balances,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const key = (id: string, accountId: string, sha: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id,
  accountId,
  sha256: sha.repeat(64).slice(0, 64),
  scopes: ['data:read'],
  revoked: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  revokedAt: null,
  label: null,
  ...overrides,
});

const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));

/** The behaviour every IdentityStore implementation must have. */
export function identityStoreContract(name: string, make: () => Promise<IdentityStore>) {
  describe(`IdentityStore contract: ${name}`, () => {
    it('stores, replaces and lists accounts', async () => {
      const store = await make();
      expect(await store.getAccount('a')).toBeUndefined();
      await store.putAccount(account('a'));
      await store.putAccount(account('b'));
      await store.putAccount(account('a', { USDC: '20', WETH: '1.5' }));
      expect(await store.getAccount('a')).toEqual(account('a', { USDC: '20', WETH: '1.5' }));
      expect(byId(await store.listAccounts())).toEqual([account('a', { USDC: '20', WETH: '1.5' }), account('b')]);
    });

    it('creates an account only if absent: one of concurrent creators wins, the first record stays', async () => {
      const store = await make();
      const created = await Promise.all([1, 2, 3].map((i) => store.createAccount(account('solo', { USDC: String(i) }))));
      expect(created.filter(Boolean)).toHaveLength(1);
      const winner = created.indexOf(true) + 1;
      expect((await store.getAccount('solo'))!.balances).toEqual({ USDC: String(winner) });
    });

    it('finds keys by the hash of their secret and by id, and lists them per account', async () => {
      const store = await make();
      const k1 = key('k1', 'a', 'a1', { scopes: ['data:read', 'execute:preview'], label: 'bot' });
      const k2 = key('k2', 'a', 'b2');
      const k3 = key('k3', 'b', 'c3');
      for (const k of [k1, k2, k3]) await store.putKey(k);
      expect(await store.findKeyByHash(k1.sha256)).toEqual(k1);
      expect(await store.findKeyByHash('f'.repeat(64))).toBeUndefined();
      expect(await store.getKey('k3')).toEqual(k3);
      expect(await store.getKey('none')).toBeUndefined();
      expect(byId(await store.listKeys('a'))).toEqual([k1, k2]);
      expect(byId(await store.listKeys())).toEqual([k1, k2, k3]);
    });

    it('moves the hash index when a key is replaced with another secret', async () => {
      const store = await make();
      await store.putKey(key('k', 'a', 'd4'));
      const rotated = key('k', 'a', 'e5');
      await store.putKey(rotated);
      expect(await store.findKeyByHash(key('k', 'a', 'd4').sha256)).toBeUndefined();
      expect(await store.findKeyByHash(rotated.sha256)).toEqual(rotated);
      expect(await store.listKeys()).toEqual([rotated]);
    });

    it('revokes a key once: the first revocation time stays, unknown keys give undefined', async () => {
      const store = await make();
      await store.putKey(key('k', 'a', 'f6'));
      const revoked = await store.revokeKey('k', '2026-02-01T00:00:00.000Z');
      expect(revoked).toMatchObject({ id: 'k', revoked: true, revokedAt: '2026-02-01T00:00:00.000Z' });
      expect(await store.revokeKey('k', '2026-03-01T00:00:00.000Z')).toMatchObject({ revokedAt: '2026-02-01T00:00:00.000Z' });
      expect(await store.findKeyByHash(key('k', 'a', 'f6').sha256)).toMatchObject({ revoked: true });
      expect(await store.revokeKey('none', '2026-02-01T00:00:00.000Z')).toBeUndefined();
    });
  });
}
