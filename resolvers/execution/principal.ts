import type { Principal } from '../../src/auth/authenticator.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { withAnswerFacts } from '../../src/http/rest/answer-facts.js';

/** The caller of a guarded field (its auth scopes already admitted it). */
export async function principalOf(ctx: GatewayContext): Promise<Principal> {
  const auth = await ctx.auth.resolve();
  if (auth.kind === 'anonymous') throw new Error('guarded field resolved without a principal');
  return auth;
}

/** An answer that replays an earlier idempotent request says so (Idempotent-Replayed: true). */
export function replayedAnswer<T extends object>(value: T, replayed: boolean): T {
  return replayed ? withAnswerFacts(value, { headers: { 'idempotent-replayed': 'true' } }) : value;
}
