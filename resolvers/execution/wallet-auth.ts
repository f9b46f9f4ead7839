import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { principalOf } from './principal.js';

/** DELETE /api/v1/auth/session: ends every wallet session of the caller's account. */
export async function signOut(ctx: GatewayContext): Promise<true> {
  const principal = await principalOf(ctx);
  await ctx.services.execution.wallets.revokeAll(principal.account.id);
  await ctx.services.execution.audit.record(principal.account.id, 'wallet_sessions_revoked', null, {});
  return true;
}

/** DELETE /api/v1/keys/{keyId}: revokes one of the account's keys, effective on the next request. */
export async function revokeApiKey(ctx: GatewayContext, keyId: string): Promise<{ keyId: string; revokedAt: string | null }> {
  const principal = await principalOf(ctx);
  const revoked = await ctx.services.keys.revokeOwn(principal.account.id, keyId);
  await ctx.services.execution.audit.record(principal.account.id, 'api_key_revoked', null, { keyId });
  return { keyId, revokedAt: revoked.revokedAt };
}
