import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { principalOf } from '../execution/principal.js';
import { valueAccount, type LendingPosition, type PerpPosition } from './account-valuation.js';

export interface Positions {
  perps: PerpPosition[];
  lending: LendingPosition[];
  loanToValue: string | null;
}

/** The account's open perpetual and lending positions, marked to the snapshot cache; stale marks say so. */
export async function positionsEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<Positions>> {
  const { account } = await principalOf(ctx);
  const now = ctx.services.clock.now();
  const v = await valueAccount(ctx, account);
  return publicEnvelope({ perps: v.perps, lending: v.lending, loanToValue: v.loanToValue }, v.freshness, now);
}
