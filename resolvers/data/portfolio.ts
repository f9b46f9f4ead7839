import { Decimal } from '../../src/domain/decimal.js';
import { combineFreshness, missingFreshness, type Freshness } from '../../src/domain/freshness.js';
import type { GatewayContext } from '../../schema/context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';

const DOLLARS = new Set(['USD', 'USDC', 'USDT']);

export interface PortfolioBalance {
  token: string;
  amount: string;
  priceUsd: string | null;
  valueUsd: string | null;
}

export interface Portfolio {
  accountId: string;
  wallet: string;
  balances: PortfolioBalance[];
  totalValueUsd: string;
}

/**
 * The key's own account, valued at the current snapshot prices; it is as fresh as those prices.
 * Ledger entries other than tokens (positions, margin, supplied, borrowed) are listed unpriced.
 */
export async function portfolioEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<Portfolio>> {
  const auth = await ctx.auth.resolve();
  if (auth.kind === 'anonymous') throw new Error('portfolio resolved without a principal');
  const { reader, clock } = ctx.services;
  const now = clock.now();
  const account = (await ctx.services.identities.getAccount(auth.account.id)) ?? auth.account;
  // Balances are the paper ledger's: configured balances plus every execution since.
  const { ledger } = ctx.services.executionStores;
  await ledger.seed(account.id, account.balances);
  const ledgerBalances = (await ledger.balances(account.id)) ?? account.balances;
  const freshnessParts: Freshness[] = [];
  let total = new Decimal(0);
  const balances: PortfolioBalance[] = [];
  for (const [token, amount] of Object.entries(ledgerBalances)) {
    let price: Decimal | null = DOLLARS.has(token.toUpperCase()) ? new Decimal(1) : null;
    if (!price && !token.includes(':')) {
      const market = reader.directory.resolve(token);
      const view = market && (await reader.view(market, now));
      if (view && DOLLARS.has(view.quote)) {
        price = new Decimal(view.price);
        freshnessParts.push(view.freshness);
      }
    }
    const value = price?.mul(amount) ?? null;
    if (value) total = total.plus(value);
    balances.push({ token, amount, priceUsd: price?.toString() ?? null, valueUsd: value?.toFixed(2) ?? null });
  }
  const freshness = combineFreshness(freshnessParts, { ...missingFreshness('no_snapshot', 'healthy', now), stale: false, staleReason: null });
  return publicEnvelope(ctx, { accountId: account.id, wallet: account.wallet, balances, totalValueUsd: total.toFixed(2) }, freshness, now);
}
