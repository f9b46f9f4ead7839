import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { valueAccount, type ValuedEntry } from './account-valuation.js';
import type { VenueAccountView } from '../../src/execution/venue-accounts.js';
import { principalOf } from '../execution/principal.js';

export type PortfolioBalance = ValuedEntry;

export interface Portfolio {
  accountId: string;
  wallet: string;
  balances: PortfolioBalance[];
  totalValueUsd: string;
  /** Real venues' accounts bound to this account, as the venues report them (not in totalValueUsd). */
  venues: VenueAccountView[];
}

/**
 * The key's own account, valued at the current snapshot prices (see valueAccount): tokens,
 * margin, perpetual positions at their unrealised PnL, lending supplied and borrowed. It is as
 * fresh as those prices.
 */
export async function portfolioEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<Portfolio>> {
  const { account } = await principalOf(ctx);
  const now = ctx.services.clock.now();
  const [v, venues] = await Promise.all([valueAccount(ctx, account), ctx.services.execution.venueAccounts.of(account.id)]);
  return publicEnvelope({ accountId: account.id, wallet: account.wallet, balances: v.entries, totalValueUsd: v.totalValueUsd, venues }, v.freshness, now);
}
