import { Decimal } from '../../domain/decimal.js';
import type { MarketDefinition } from '../../domain/market.js';
import { findMarket } from '../../market-data/market-directory.js';
import { invalidField } from '../../errors/error-factories.js';
import type { ExecutionInstruction } from '../instruction.js';
import type { ExecutionVenue, Quote, VenueContext, VenueFill } from './execution-venue.js';
import { gateRefusal } from '../../errors/gate-refusals.js';
import { listOf } from './order-book-venue.js';

const ACTIONS = ['supply', 'withdraw', 'borrow', 'repay'] as const;
type LendingAction = (typeof ACTIONS)[number];
/** Borrowing is allowed up to this share of the supplied collateral's value. */
const LOAN_TO_VALUE = new Decimal('0.75');

/**
 * A lending pool per market: supply and withdraw move tokens into and out of `supplied:*`,
 * borrow and repay move `borrowed:*`; borrowing is capped by supplied collateral at 75 % LTV,
 * valued at the data plane's prices. Rates are the pool's utilisation-based APYs.
 */
export class LendingVenue implements ExecutionVenue {
  constructor(
    readonly protocolId: string,
    private readonly markets: () => readonly MarketDefinition[],
  ) {}

  marketFor(i: ExecutionInstruction): MarketDefinition {
    const market = findMarket(this.markets(), i.assetIn.token);
    if (!market) throw invalidField('assetIn.token', `has no lending market on ${this.protocolId} (${listOf(this.markets())})`);
    return market;
  }

  private action(i: ExecutionInstruction): LendingAction {
    if (!(ACTIONS as readonly string[]).includes(i.action)) throw invalidField('action', `must be one of ${ACTIONS.join(', ')}`);
    if (i.metadata && Object.keys(i.metadata).length > 0) throw invalidField('metadata', `is not used by ${i.action}`);
    return i.action as LendingAction;
  }

  private changes(action: LendingAction, token: string, amount: Decimal): Record<string, string> {
    const a = amount.toString();
    const n = amount.neg().toString();
    switch (action) {
      case 'supply':
        return { [token]: n, [`supplied:${token}`]: a };
      case 'withdraw':
        return { [`supplied:${token}`]: n, [token]: a };
      case 'borrow':
        return { [`borrowed:${token}`]: a, [token]: a };
      case 'repay':
        return { [token]: n, [`borrowed:${token}`]: n };
    }
  }

  private async priceOf(token: string, ctx: VenueContext): Promise<Decimal> {
    const market = this.markets().find((m) => m.asset === token);
    const view = market && (await ctx.reader.view(market, ctx.now));
    if (!view) throw gateRefusal('VENUE_UNHEALTHY', `No price for ${token}.`, { gate: 'venue_health' });
    return new Decimal(view.price);
  }

  /** Whether borrowed value stays within LTV of supplied value after `changes`. */
  private async collateralShortfall(changes: Record<string, string>, ctx: VenueContext): Promise<string | null> {
    const after = { ...ctx.balances };
    for (const [k, v] of Object.entries(changes)) after[k] = new Decimal(after[k] ?? 0).plus(v).toString();
    let supplied = new Decimal(0);
    let borrowed = new Decimal(0);
    for (const [key, value] of Object.entries(after)) {
      const [kind, token] = key.split(':');
      if (!token || (kind !== 'supplied' && kind !== 'borrowed')) continue;
      const usd = new Decimal(value).mul(await this.priceOf(token, ctx));
      if (kind === 'supplied') supplied = supplied.plus(usd);
      else borrowed = borrowed.plus(usd);
    }
    const limit = supplied.mul(LOAN_TO_VALUE);
    return borrowed.gt(limit) ? `Borrowing ${borrowed.toFixed(2)} USD would exceed 75 % of supplied collateral (${limit.toFixed(2)} USD).` : null;
  }

  async quote(i: ExecutionInstruction, ctx: VenueContext): Promise<Quote> {
    const action = this.action(i);
    const market = this.marketFor(i);
    const amount = new Decimal(i.assetIn.amount);
    if (amount.decimalPlaces() > market.sizeDecimals) throw invalidField('assetIn.amount', `has more than ${market.sizeDecimals} decimals for ${market.asset}`);
    const price = await this.priceOf(market.asset, ctx);
    const changes = this.changes(action, market.asset, amount);
    return {
      marketId: market.id,
      side: null,
      price: price.toFixed(market.priceDecimals),
      amount: amount.toString(),
      notionalUsd: amount.mul(price).toFixed(2, Decimal.ROUND_UP),
      fee: '0',
      feeToken: market.asset,
      amountOut: null,
      minAmountOut: null,
      changes,
      mayGoNegative: [],
      tradable: { ok: true },
      insufficient: action === 'borrow' || action === 'withdraw' ? await this.collateralShortfall(changes, ctx) : null,
    };
  }

  /**
   * Borrowing and withdrawing keep the account within LTV even when concurrent orders were each
   * checked against the same balances; supplying and repaying only improve it.
   */
  async afterFill(i: ExecutionInstruction, ctx: VenueContext): Promise<string | null> {
    return i.action === 'borrow' || i.action === 'withdraw' ? this.collateralShortfall({}, ctx) : null;
  }

  async fill(i: ExecutionInstruction, quote: Quote, ctx: VenueContext): Promise<VenueFill> {
    const fresh = await this.quote(i, ctx);
    if (fresh.insufficient) return { state: 'rejected', fill: null, changes: {}, reason: fresh.insufficient };
    return {
      state: 'filled',
      fill: {
        price: fresh.price ?? '0',
        filledAmount: fresh.amount,
        requestedAmount: quote.amount,
        notional: fresh.notionalUsd,
        fee: '0',
        feeToken: fresh.feeToken,
      },
      changes: fresh.changes,
      reason: null,
    };
  }
}
