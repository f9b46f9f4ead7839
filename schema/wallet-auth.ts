import { revokeApiKey, signOut } from '../resolvers/execution/wallet-auth.js';
import { builder } from './builder.js';

const NonceRef = builder.objectRef<{ nonce: string; expiresAt: number; domain: string }>('SiweNonce').implement({
  fields: (t) => ({ nonce: t.exposeString('nonce'), domain: t.exposeString('domain'), expiresAt: t.field({ type: 'DateTime', resolve: (n) => n.expiresAt }) }),
});

const WalletSessionRef = builder.objectRef<{ sessionToken: string; accountId: string; wallet: string; expiresAt: number }>('WalletSessionGrant').implement({
  fields: (t) => ({
    sessionToken: t.exposeString('sessionToken', { description: 'Send as Authorization: Bearer <sessionToken>.' }),
    accountId: t.exposeString('accountId'),
    wallet: t.exposeString('wallet'),
    expiresAt: t.field({ type: 'DateTime', resolve: (s) => s.expiresAt }),
  }),
});

const RevokedKeyRef = builder.objectRef<{ keyId: string; revokedAt: string | null }>('RevokedApiKey').implement({
  fields: (t) => ({ keyId: t.exposeString('keyId'), revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (k) => k.revokedAt }) }),
});

builder.mutationFields((t) => ({
  createSiweNonce: t.field({
    type: NonceRef,
    description: 'POST /api/v1/auth/siwe/nonce',
    resolve: (_r, _a, ctx) => ctx.services.execution.wallets.issueNonce(),
  }),
  verifySiwe: t.field({
    type: WalletSessionRef,
    description: 'POST /api/v1/auth/siwe/verify',
    args: { message: t.arg.string({ required: true }), signature: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => ctx.services.execution.wallets.signIn(a.message, a.signature),
  }),
  signOut: t.field({
    type: 'Boolean',
    description: 'DELETE /api/v1/auth/session (wallet session): ends every wallet session of the account',
    authScopes: { walletSession: true },
    resolve: (_r, _a, ctx) => signOut(ctx),
  }),
  revokeApiKey: t.field({
    type: RevokedKeyRef,
    description: 'DELETE /api/v1/keys/{keyId} (wallet session)',
    authScopes: { walletSession: true },
    args: { keyId: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => revokeApiKey(ctx, a.keyId),
  }),
}));
