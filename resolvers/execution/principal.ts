import type { Principal } from '../../src/auth/authenticator.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';

/** The caller of a guarded field (its auth scopes already admitted it). */
export async function principalOf(ctx: GatewayContext): Promise<Principal> {
  const auth = await ctx.auth.resolve();
  if (auth.kind === 'anonymous') throw new Error('guarded field resolved without a principal');
  return auth;
}

/** Marks a response as a replay of an earlier idempotent request. */
export function markReplayed(ctx: GatewayContext, replayed: boolean): void {
  if (replayed && ctx.http) ctx.http.headers = { ...ctx.http.headers, 'idempotent-replayed': 'true' };
}
