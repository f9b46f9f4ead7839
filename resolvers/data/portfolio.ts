import { Decimal } from '../../src/domain/decimal.js';
import { combineFreshness, freshnessOf, MAX_AGE_MS } from '../../src/domain/freshness.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';
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
  const account = auth.account;
  // Balances are the paper ledger's: configured balances plus every execution since.
  const ledgerBalances = await ctx.services.execution.ledger.balancesOf(account);
  // One read for every priced token; positions and pool entries (`kind:token`) stay unpriced.
  const tokens = Object.keys(ledgerBalances);
  const marketOf = new Map(
    tokens
      .filter((t) => !DOLLARS.has(t.toUpperCase()) && !t.includes(':'))
      .flatMap((t) => {
        const m = reader.directory.resolve(t);
        return m ? [[t, m] as const] : [];
      }),
  );
  const { views } = await reader.views([...new Set(marketOf.values())], now);
  const viewOf = new Map(views.filter((v) => DOLLARS.has(v.quote)).map((v) => [v.id, v]));
  let total = new Decimal(0);
  const balances: PortfolioBalance[] = tokens.map((token) => {
    const amount = ledgerBalances[token]!;
    const view = viewOf.get(marketOf.get(token)?.id ?? '');
    const price = DOLLARS.has(token.toUpperCase()) ? new Decimal(1) : view ? new Decimal(view.price) : null;
    const value = price?.mul(amount) ?? null;
    if (value) total = total.plus(value);
    return { token, amount, priceUsd: price?.toString() ?? null, valueUsd: value?.toFixed(2) ?? null };
  });
  const used = [...new Set([...marketOf.values()].map((m) => viewOf.get(m.id)).filter((v) => v !== undefined))];
  // With nothing to price (dollars only) the answer is as fresh as the ledger: now.
  const freshness = combineFreshness(
    used.map((v) => v.freshness),
    freshnessOf(now, 'healthy', MAX_AGE_MS.default, now),
  );
  return publicEnvelope(ctx, { accountId: account.id, wallet: account.wallet, balances, totalValueUsd: total.toFixed(2) }, freshness, now);
}
