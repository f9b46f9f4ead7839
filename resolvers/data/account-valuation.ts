import type { Account } from '../../src/auth/identity.js';
import { Decimal } from '../../src/domain/decimal.js';
import { combineFreshness, freshnessOf, MAX_AGE_MS, type Freshness } from '../../src/domain/freshness.js';
import type { ListPosition } from '../../src/execution/record-listing.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import type { MarketView } from '../../src/market-data/market-view.js';

const DOLLARS = new Set(['USD', 'USDC', 'USDT']);
/** Maintenance margin of the paper perpetuals venue: liquidation when equity falls to 0.5 % of the position's value. */
export const MAINTENANCE_MARGIN = new Decimal('0.005');
const YEAR_MS = 365 * 24 * 3_600_000;

export interface PerpPosition {
  marketId: string;
  side: 'long' | 'short';
  size: string;
  entryPrice: string | null;
  markPrice: string | null;
  unrealizedPnlUsd: string | null;
  marginUsd: string;
  leverage: string | null;
  liquidationPrice: string | null;
  stale: boolean;
}

export interface LendingPosition {
  asset: string;
  supplied: string;
  borrowed: string;
  priceUsd: string | null;
  accruedSupplyInterest: string;
  accruedBorrowInterest: string;
  stale: boolean;
}

export interface ValuedEntry {
  token: string;
  amount: string;
  priceUsd: string | null;
  valueUsd: string | null;
}

export interface AccountValuation {
  entries: ValuedEntry[];
  perps: PerpPosition[];
  lending: LendingPosition[];
  /** Borrowed value over supplied value, or null with nothing supplied. */
  loanToValue: string | null;
  totalValueUsd: string;
  freshness: Freshness;
}

/**
 * An account valued at current snapshot prices: tokens at their price, margin at face value,
 * perpetual positions at their unrealised PnL (size × mark − signed cost), lending supplied and
 * borrowed at the asset's price. Placing collateral moves value between entries, so the total
 * moves only by fees, PnL and prices. As fresh as the oldest price used.
 */
export async function valueAccount(ctx: GatewayContext, account: Pick<Account, 'id' | 'balances'>): Promise<AccountValuation> {
  const { reader, clock } = ctx.services;
  const now = clock.now();
  const ledger = await ctx.services.execution.ledger.balancesOf(account);
  const split = (key: string) => (key.includes(':') ? (key.split(':', 2) as [string, string]) : (['token', key] as [string, string]));
  const priced = new Set<string>();
  for (const key of Object.keys(ledger)) {
    const [kind, subject] = split(key);
    if (kind === 'position') priced.add(subject);
    else if ((kind === 'token' || kind === 'supplied' || kind === 'borrowed') && !DOLLARS.has(subject.toUpperCase())) priced.add(subject);
  }
  const markets = [...priced].flatMap((s) => {
    const m = reader.directory.resolve(s);
    return m ? [[s, m] as const] : [];
  });
  const lendingMarkets = Object.keys(ledger).flatMap((key) => {
    const [kind, asset] = split(key);
    const m = kind === 'supplied' || kind === 'borrowed' ? reader.directory.resolveOfKind(asset, 'lending') : undefined;
    return m ? [[asset, m] as const] : [];
  });
  const { views } = await reader.views([...new Set([...markets, ...lendingMarkets].map(([, m]) => m))], now);
  const viewById = new Map(views.map((v) => [v.id, v]));
  const viewOf = new Map<string, MarketView>(markets.flatMap(([s, m]) => (viewById.has(m.id) ? [[s, viewById.get(m.id)!] as const] : [])));
  const priceOf = (subject: string): Decimal | null => {
    if (DOLLARS.has(subject.toUpperCase())) return new Decimal(1);
    const v = viewOf.get(subject);
    return v && DOLLARS.has(v.quote) ? new Decimal(v.price) : null;
  };
  const staleOf = (subject: string) => viewOf.get(subject)?.freshness.stale ?? !DOLLARS.has(subject.toUpperCase());

  let total = new Decimal(0);
  const entries: ValuedEntry[] = [];
  const perps: PerpPosition[] = [];
  const lendingByAsset = new Map<string, { supplied: Decimal; borrowed: Decimal }>();
  for (const [key, amount] of Object.entries(ledger)) {
    const [kind, subject] = split(key);
    if (kind === 'cost') continue; // valued with its position
    let price: Decimal | null = null;
    let value: Decimal | null;
    if (kind === 'margin') value = new Decimal(amount);
    else if (kind === 'position') {
      const perp = perpPosition(subject, new Decimal(amount), ledger, priceOf(subject), staleOf(subject));
      if (perp) perps.push(perp);
      value = perp?.unrealizedPnlUsd ? new Decimal(perp.unrealizedPnlUsd) : new Decimal(amount).isZero() ? new Decimal(0) : null;
      price = priceOf(subject);
    } else {
      price = priceOf(subject);
      const signed = kind === 'borrowed' ? new Decimal(amount).neg() : new Decimal(amount);
      value = price ? signed.mul(price) : null;
      if (kind === 'supplied' || kind === 'borrowed') {
        const l = lendingByAsset.get(subject) ?? { supplied: new Decimal(0), borrowed: new Decimal(0) };
        l[kind] = new Decimal(amount);
        lendingByAsset.set(subject, l);
      }
    }
    if (value) total = total.plus(value);
    entries.push({ token: key, amount, priceUsd: price?.toString() ?? null, valueUsd: value?.toFixed(2) ?? null });
  }

  const lendingViewOf = new Map(lendingMarkets.flatMap(([asset, m]) => (viewById.has(m.id) ? [[asset, viewById.get(m.id)!] as const] : [])));
  const interest = lendingByAsset.size > 0 ? await accruedInterest(ctx, account.id, now, (asset) => lendingViewOf.get(asset)) : new Map();
  let suppliedUsd = new Decimal(0);
  let borrowedUsd = new Decimal(0);
  const lending: LendingPosition[] = [...lendingByAsset].map(([asset, l]) => {
    const price = priceOf(asset);
    if (price) {
      suppliedUsd = suppliedUsd.plus(l.supplied.mul(price));
      borrowedUsd = borrowedUsd.plus(l.borrowed.mul(price));
    }
    const accrued = interest.get(asset) ?? { supply: new Decimal(0), borrow: new Decimal(0) };
    return {
      asset,
      supplied: l.supplied.toString(),
      borrowed: l.borrowed.toString(),
      priceUsd: price?.toString() ?? null,
      accruedSupplyInterest: accrued.supply.toFixed(8),
      accruedBorrowInterest: accrued.borrow.toFixed(8),
      stale: staleOf(asset),
    };
  });
  const used = [...new Set([...viewOf.values(), ...lendingViewOf.values()])].map((v) => v.freshness);
  return {
    entries,
    perps,
    lending,
    loanToValue: suppliedUsd.isZero() ? null : borrowedUsd.div(suppliedUsd).toFixed(4),
    totalValueUsd: total.toFixed(2),
    freshness: combineFreshness(used, freshnessOf(now, 'healthy', MAX_AGE_MS.default, now)),
  };
}

function perpPosition(marketId: string, size: Decimal, ledger: Record<string, string>, mark: Decimal | null, stale: boolean): PerpPosition | null {
  if (size.isZero()) return null;
  const margin = new Decimal(ledger[`margin:${marketId}`] ?? 0);
  const costEntry = ledger[`cost:${marketId}`];
  const cost = costEntry === undefined ? null : new Decimal(costEntry);
  const entry = cost ? cost.div(size) : null;
  const pnl = cost && mark ? size.mul(mark).minus(cost) : null;
  // Equity margin + size × (P − entry) meets maintenance × |size| × P at P = (size × entry − margin) / (size − mmr × |size|).
  const liquidation = entry
    ? size
        .mul(entry)
        .minus(margin)
        .div(size.minus(MAINTENANCE_MARGIN.mul(size.abs())))
    : null;
  return {
    marketId,
    side: size.isPositive() ? 'long' : 'short',
    size: size.abs().toString(),
    entryPrice: entry?.toFixed(2) ?? null,
    markPrice: mark?.toString() ?? null,
    unrealizedPnlUsd: pnl?.toFixed(2) ?? null,
    marginUsd: margin.toFixed(2),
    leverage: mark && !margin.isZero() ? size.abs().mul(mark).div(margin).toFixed(2) : null,
    // A fully collateralised long (1x) cannot be liquidated: no price.
    liquidationPrice: liquidation && liquidation.gte('0.01') ? liquidation.toFixed(2) : null,
    stale,
  };
}

/**
 * Interest accrued on supplied and borrowed amounts since each lending fill, at the market's
 * current APY (the paper venue credits none to the ledger: this is what a real pool would owe).
 */
async function accruedInterest(ctx: GatewayContext, accountId: string, now: number, viewOf: (asset: string) => MarketView | undefined) {
  const fills = [];
  let after: ListPosition | undefined;
  for (;;) {
    const page = await ctx.services.execution.records.executions(accountId, { protocol: 'paper-lending', state: 'filled' }, 100, after);
    fills.push(...page.items);
    if (!page.next) break;
    after = page.next;
  }
  const out = new Map<string, { supply: Decimal; borrow: Decimal }>();
  const principal = new Map<string, { supply: Decimal; borrow: Decimal; at: number }>();
  const accrue = (asset: string, until: number) => {
    const p = principal.get(asset);
    const view = viewOf(asset);
    if (!p || !view) return;
    const years = new Decimal(until - p.at).div(YEAR_MS);
    const o = out.get(asset) ?? { supply: new Decimal(0), borrow: new Decimal(0) };
    o.supply = o.supply.plus(p.supply.mul(new Decimal(view.supplyApy ?? 0).div(100)).mul(years));
    o.borrow = o.borrow.plus(p.borrow.mul(new Decimal(view.borrowApy ?? 0).div(100)).mul(years));
    out.set(asset, o);
  };
  for (const e of fills.reverse()) {
    if (!e.fill) continue;
    const asset = e.fill.feeToken;
    accrue(asset, e.createdAt);
    const p = principal.get(asset) ?? { supply: new Decimal(0), borrow: new Decimal(0), at: e.createdAt };
    const amount = new Decimal(e.fill.filledAmount);
    if (e.action === 'supply') p.supply = p.supply.plus(amount);
    if (e.action === 'withdraw') p.supply = Decimal.max(0, p.supply.minus(amount));
    if (e.action === 'borrow') p.borrow = p.borrow.plus(amount);
    if (e.action === 'repay') p.borrow = Decimal.max(0, p.borrow.minus(amount));
    p.at = e.createdAt;
    principal.set(asset, p);
  }
  for (const asset of principal.keys()) accrue(asset, now);
  return out;
}
