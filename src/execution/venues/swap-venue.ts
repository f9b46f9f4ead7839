import { Decimal } from '../../domain/decimal.js';
import type { MarketDefinition } from '../../domain/market.js';
import { invalidField } from '../../errors/error-factories.js';
import type { ExecutionInstruction } from '../instruction.js';
import type { ExecutionVenue, Quote, VenueContext, VenueFill } from './execution-venue.js';
import { gateRefusal } from '../../errors/gate-refusals.js';

const POOL_FEE = new Decimal('0.003');
/** Quote-side depth of each simulated pool, in USDC. */
const POOL_QUOTE_RESERVE = new Decimal(25_000_000);

/**
 * A constant-product pool (x·y = k) per swap market, its reserves set by the data plane's price
 * and, where the venue reports it, the pool's in-range liquidity as the quote reserve (a
 * Uniswap v3 pool within its current tick range is exactly such a pool); else 25 M of quote.
 * The fee is the pool's (0.3 % unless the venue says otherwise). The quote carries
 * `minAmountOut` from the slippage bound; a fill below it is rejected rather than executed.
 */
export class SwapVenue implements ExecutionVenue {
  constructor(
    readonly protocolId: string,
    private readonly pools: () => readonly MarketDefinition[],
    private readonly feeOf: (pool: MarketDefinition) => Decimal = () => POOL_FEE,
  ) {}

  marketFor(i: ExecutionInstruction): MarketDefinition {
    const out = i.metadata?.tokenOut?.toUpperCase();
    const inToken = i.assetIn.token.toUpperCase();
    if (!out) throw invalidField('metadata.tokenOut', 'is required for a swap');
    const pool = this.pools().find((p) => (p.asset === inToken && p.quote === out) || (p.asset === out && p.quote === inToken));
    if (!pool) throw invalidField('metadata.tokenOut', `has no pool with ${i.assetIn.token} on ${this.protocolId}`);
    return pool;
  }

  private async amounts(i: ExecutionInstruction, ctx: VenueContext) {
    if (i.action !== 'swap') throw invalidField('action', `is not supported by ${this.protocolId}; use swap`);
    if (i.metadata?.side || i.metadata?.type || i.metadata?.price || i.metadata?.leverage) {
      throw invalidField('metadata', 'takes only tokenOut and slippageBps for a swap');
    }
    const pool = this.marketFor(i);
    const view = await ctx.reader.view(pool, ctx.now);
    if (!view) throw gateRefusal('VENUE_UNHEALTHY', `No pool state for ${pool.id}.`, { gate: 'venue_health' });
    const price = new Decimal(view.price);
    const quoteReserve = view.liquidity === null ? POOL_QUOTE_RESERVE : new Decimal(view.liquidity);
    const fee = this.feeOf(pool);
    const baseReserve = quoteReserve.div(price);
    const selling = i.assetIn.token.toUpperCase() === pool.asset; // base in, quote out
    const [reserveIn, reserveOut] = selling ? [baseReserve, quoteReserve] : [quoteReserve, baseReserve];
    const amountIn = new Decimal(i.assetIn.amount);
    const effective = amountIn.mul(new Decimal(1).minus(fee));
    const out = reserveOut.mul(effective).div(reserveIn.plus(effective));
    const outDecimals = selling ? 6 : pool.sizeDecimals;
    const notionalUsd = selling ? amountIn.mul(price) : amountIn;
    return { pool, price, selling, amountIn, out: out.toDecimalPlaces(outDecimals, Decimal.ROUND_DOWN), outDecimals, notionalUsd, fee: amountIn.mul(fee) };
  }

  async quote(i: ExecutionInstruction, ctx: VenueContext): Promise<Quote> {
    const a = await this.amounts(i, ctx);
    const bps = i.metadata?.slippageBps ?? 50;
    const minOut = a.out.mul(new Decimal(1).minus(new Decimal(bps).div(10_000))).toDecimalPlaces(a.outDecimals, Decimal.ROUND_DOWN);
    const tokenIn = a.selling ? a.pool.asset : a.pool.quote;
    const tokenOut = a.selling ? a.pool.quote : a.pool.asset;
    return {
      marketId: a.pool.id,
      side: a.selling ? 'sell' : 'buy',
      price: a.price.toFixed(a.pool.priceDecimals),
      amount: a.amountIn.toString(),
      notionalUsd: a.notionalUsd.toFixed(2, Decimal.ROUND_UP),
      fee: a.fee.toString(),
      feeToken: tokenIn,
      amountOut: a.out.toString(),
      minAmountOut: minOut.toString(),
      changes: { [tokenIn]: a.amountIn.neg().toString(), [tokenOut]: a.out.toString() },
      mayGoNegative: [],
      tradable: { ok: true },
      insufficient: null,
    };
  }

  async fill(i: ExecutionInstruction, quote: Quote, ctx: VenueContext): Promise<VenueFill> {
    const a = await this.amounts(i, ctx);
    if (quote.minAmountOut && a.out.lt(quote.minAmountOut)) {
      return { state: 'rejected', fill: null, changes: {}, reason: `Slippage bound: ${a.out} out is below the minimum ${quote.minAmountOut}.` };
    }
    const tokenIn = a.selling ? a.pool.asset : a.pool.quote;
    const tokenOut = a.selling ? a.pool.quote : a.pool.asset;
    return {
      state: 'filled',
      fill: {
        price: a.price.toFixed(a.pool.priceDecimals),
        filledAmount: a.amountIn.toString(),
        requestedAmount: a.amountIn.toString(),
        notional: a.notionalUsd.toFixed(2),
        fee: a.fee.toString(),
        feeToken: tokenIn,
      },
      changes: { [tokenIn]: a.amountIn.neg().toString(), [tokenOut]: a.out.toString() },
      reason: null,
    };
  }
}
