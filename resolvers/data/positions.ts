import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { principalOf } from '../execution/principal.js';
import type { VenueAccountView } from '../../src/execution/venue-accounts.js';
import { valueAccount, type LendingPosition, type PerpPosition } from './account-valuation.js';

export interface Positions {
  perps: PerpPosition[];
  lending: LendingPosition[];
  loanToValue: string | null;
  /** Real venues' accounts bound to this account: the venue's positions, beside the paper ones. */
  venues: VenueAccountView[];
}

/**
 * The account's open perpetual and lending positions, marked to the snapshot cache (stale marks say
 * so), and beside them the positions real venues hold for it, as the venues report them.
 */
export async function positionsEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<Positions>> {
  const { account } = await principalOf(ctx);
  const now = ctx.services.clock.now();
  const [v, venues] = await Promise.all([valueAccount(ctx, account), ctx.services.execution.venueAccounts.of(account.id)]);
  return publicEnvelope({ perps: v.perps, lending: v.lending, loanToValue: v.loanToValue, venues }, v.freshness, now);
}
