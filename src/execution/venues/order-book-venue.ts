import { Decimal } from '../../domain/decimal.js';
import type { MarketDefinition } from '../../domain/market.js';
import { findMarket } from '../../market-data/market-directory.js';
import { invalidField } from '../../errors/error-factories.js';
import type { ExecutionInstruction } from '../instruction.js';
import { walkBook } from './book-walk.js';
import type { ExecutionVenue, Quote, VenueContext, VenueFill } from './execution-venue.js';
import { gateRefusal } from '../../errors/gate-refusals.js';

const SETTLEMENT = 'USDC';

export interface OrderBookVenueOptions {
  protocolId: string;
  /** Its markets as listed now (a real venue's catalogue moves). */
  markets: () => readonly MarketDefinition[];
  /** Taker fee as a fraction of notional. */
  feeRate: string;
  /** Perpetuals post margin and hold signed positions; equities buy and sell shares outright. */
  style: 'perpetual' | 'equity';
}

/**
 * A paper venue that fills against the cached order book: perpetuals (margin, signed positions,
 * leverage) and equities (whole shares, regular session only). Limit orders are
 * immediate-or-cancel: what crosses fills now, the rest is cancelled.
 */
export class OrderBookVenue implements ExecutionVenue {
  readonly protocolId: string;

  constructor(private readonly options: OrderBookVenueOptions) {
    this.protocolId = options.protocolId;
  }

  marketFor(i: ExecutionInstruction): MarketDefinition {
    const markets = this.options.markets();
    const market = findMarket(markets, i.assetIn.token);
    if (!market) throw invalidField('assetIn.token', `is not traded on ${this.protocolId} (${listOf(markets)})`);
    return market;
  }

  private order(i: ExecutionInstruction, market: MarketDefinition) {
    if (i.action !== 'place_order') throw invalidField('action', `is not supported by ${this.protocolId}; use place_order`);
    const side = i.metadata?.side;
    const type = i.metadata?.type;
    if (!side) throw invalidField('metadata.side', 'is required: buy or sell');
    if (!type) throw invalidField('metadata.type', 'is required: market or limit');
    if (type === 'limit' && !i.metadata?.price) throw invalidField('metadata.price', 'is required for a limit order');
    if (type === 'market' && i.metadata?.price) throw invalidField('metadata.price', 'must be omitted for a market order');
    const amount = new Decimal(i.assetIn.amount);
    if (amount.decimalPlaces() > market.sizeDecimals) throw invalidField('assetIn.amount', `has more than ${market.sizeDecimals} decimals for ${market.id}`);
    if (this.options.style === 'equity' && i.metadata?.leverage !== undefined) throw invalidField('metadata.leverage', 'is not available for equities');
    return { side, type, amount, limit: i.metadata?.price ? new Decimal(i.metadata.price) : undefined, leverage: i.metadata?.leverage ?? 1 };
  }

  private async levels(market: MarketDefinition, side: 'buy' | 'sell', ctx: VenueContext) {
    const book = await ctx.cache.getOrderBook(market.id);
    if (!book) throw gateRefusal('VENUE_UNHEALTHY', `No order book for ${market.id}.`, { gate: 'venue_health' });
    return side === 'buy' ? book.asks : book.bids;
  }

  private changesFor(market: MarketDefinition, side: 'buy' | 'sell', filled: Decimal, notional: Decimal, leverage: number) {
    const fee = notional.mul(this.options.feeRate);
    const sign = side === 'buy' ? 1 : -1;
    if (this.options.style === 'perpetual') {
      const margin = notional.div(leverage);
      return {
        fee,
        changes: {
          [SETTLEMENT]: margin.plus(fee).neg().toString(),
          [`margin:${market.id}`]: margin.toString(),
          [`position:${market.id}`]: filled.mul(sign).toString(),
          // Signed notional: entry price = cost / position, unrealised PnL = position × mark − cost.
          [`cost:${market.id}`]: notional.mul(sign).toString(),
        },
        mayGoNegative: [`position:${market.id}`, `cost:${market.id}`],
      };
    }
    return {
      fee,
      changes: { [SETTLEMENT]: notional.mul(-sign).minus(fee).toString(), [market.asset]: filled.mul(sign).toString() },
      mayGoNegative: [],
    };
  }

  /** What an immediate-or-cancel order fills now: the one simulation behind quotes (previews) and fills. */
  private async simulate(i: ExecutionInstruction, ctx: VenueContext) {
    const market = this.marketFor(i);
    const o = this.order(i, market);
    const levels = await this.levels(market, o.side, ctx);
    const walked = walkBook(levels, o.amount, o.side, o.limit);
    const state = walked.filled.isZero() ? ('rejected' as const) : walked.filled.lt(o.amount) ? ('partially_filled' as const) : ('filled' as const);
    const reason =
      state === 'rejected'
        ? 'Limit price not marketable; immediate-or-cancel order cancelled.'
        : state === 'partially_filled'
          ? 'Book depth exhausted; the rest was cancelled.'
          : null;
    return { market, o, levels, walked, state, reason };
  }

  async quote(i: ExecutionInstruction, ctx: VenueContext): Promise<Quote> {
    const { market, o, levels, walked, state, reason } = await this.simulate(i, ctx);
    // Price the full amount even when the book is thin: the quote shows what the order asks for.
    const avg = walked.filled.gt(0) ? walked.notional.div(walked.filled) : new Decimal(levels[0]?.price ?? 0);
    const notional = avg.mul(o.amount);
    const { fee, changes, mayGoNegative } = this.changesFor(market, o.side, o.amount, notional, o.leverage);
    // The venue's own session, as its last quote said (a simulator's clock, or a broker's market clock).
    const closed = this.options.style === 'equity' && (await ctx.cache.getMarket(market.id))?.sessionOpen === false;
    return {
      marketId: market.id,
      side: o.side,
      price: avg.toFixed(market.priceDecimals),
      amount: o.amount.toString(),
      notionalUsd: notional.toFixed(2, Decimal.ROUND_UP),
      fee: fee.toFixed(6),
      feeToken: SETTLEMENT,
      amountOut: null,
      minAmountOut: null,
      changes,
      mayGoNegative,
      tradable: closed ? { ok: false, reason: `${market.id} trades only in the regular session (14:30-21:00 UTC, Mon-Fri).` } : { ok: true },
      insufficient: null,
      expectedFill: { state, filledAmount: walked.filled.toString(), reason },
    };
  }

  async fill(i: ExecutionInstruction, _quote: Quote, ctx: VenueContext): Promise<VenueFill> {
    const { market, o, walked, state, reason } = await this.simulate(i, ctx);
    if (state === 'rejected') return { state, fill: null, changes: {}, reason };
    const { fee, changes } = this.changesFor(market, o.side, walked.filled, walked.notional, o.leverage);
    return {
      state,
      fill: {
        price: walked.notional.div(walked.filled).toFixed(market.priceDecimals),
        filledAmount: walked.filled.toString(),
        requestedAmount: o.amount.toString(),
        notional: walked.notional.toFixed(2),
        fee: fee.toFixed(6),
        feeToken: SETTLEMENT,
      },
      changes,
      reason,
    };
  }
}

/** The assets a venue trades, as a refusal names them (a real catalogue lists hundreds: the first few). */
export function listOf(markets: readonly MarketDefinition[]): string {
  const shown = markets.slice(0, 12).map((m) => m.asset);
  return markets.length > shown.length ? `${shown.join(', ')} and ${markets.length - shown.length} more` : shown.join(', ');
}
