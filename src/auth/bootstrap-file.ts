import { z } from 'zod';
import { readJsonConfig } from '../config/read-json-config.js';
import type { IdentityStore } from './identity-store.js';
import { SCOPES } from './identity.js';
import { decimalString, walletAddress } from '../domain/validators.js';

const bootstrapSchema = z.object({
  accounts: z.array(
    z.object({
      id: z.string().min(1),
      wallet: walletAddress,
      balances: z.record(z.string().min(1), decimalString).default({}),
    }),
  ),
  apiKeys: z.array(
    z.object({
      id: z.string().min(1),
      accountId: z.string().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be the lowercase hex SHA-256 of the key'),
      scopes: z.array(z.enum(SCOPES)).min(1),
      revoked: z.boolean().default(false),
      label: z.string().optional(),
    }),
  ),
});

export type Bootstrap = z.infer<typeof bootstrapSchema>;

/** Reads and validates `GATEWAY_BOOTSTRAP`; errors name the file and the bad entry. */
export function readBootstrap(path: string): Bootstrap {
  const data = readJsonConfig('GATEWAY_BOOTSTRAP', path, bootstrapSchema);
  const accountIds = new Set(data.accounts.map((a) => a.id));
  const seen = new Set<string>();
  data.apiKeys.forEach((k, i) => {
    if (!accountIds.has(k.accountId)) throw new Error(`GATEWAY_BOOTSTRAP ${path}: apiKeys[${i}].accountId: no account '${k.accountId}'`);
    if (seen.has(k.id)) throw new Error(`GATEWAY_BOOTSTRAP ${path}: apiKeys[${i}].id: duplicate id '${k.id}'`);
    seen.add(k.id);
  });
  return data;
}

/** Writes the bootstrap entries into the identity store (bootstrap wins over stored copies). */
export async function applyBootstrap(store: IdentityStore, data: Bootstrap, now: string): Promise<void> {
  for (const a of data.accounts) await store.putAccount({ id: a.id, wallet: a.wallet, balances: a.balances, createdAt: now });
  for (const k of data.apiKeys) {
    const existing = await store.getKey(k.id);
    await store.putKey({
      id: k.id,
      accountId: k.accountId,
      sha256: k.sha256,
      scopes: k.scopes,
      revoked: k.revoked || (existing?.revoked ?? false),
      createdAt: existing?.createdAt ?? now,
      revokedAt: existing?.revokedAt ?? (k.revoked ? now : null),
      label: k.label ?? null,
    });
  }
}
