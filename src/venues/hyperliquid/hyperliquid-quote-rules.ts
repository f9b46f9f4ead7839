import { Decimal } from '../../domain/decimal.js';
import type { MarketDefinition } from '../../domain/market.js';
import { invalidField } from '../../errors/error-factories.js';
import type { ExecutionInstruction } from '../../execution/instruction.js';
import type { Quote } from '../../execution/venues/execution-venue.js';
import { restingExpectation, slippageBound, VenueRefusal, type RoutedOrder } from '../../execution/venues/routed-venue.js';
import type { VenueAsset } from './hyperliquid-assets.js';
import { priceProblem, roundedPrice, sizeProblem, valueProblem } from './hyperliquid-order-rules.js';

/** The venue's base-tier taker fee (0.045 %): what a preview prices with (the fills say what was charged). */
export const TAKER_FEE = '0.00045';

/** An instruction as Hyperliquid would take it: what the preview shows and what the margin check needs. */
export interface CheckedOrder {
  side: 'buy' | 'sell';
  amount: Decimal;
  /** The order's price at the venue: the limit, or the slippage-bounded price of a market order, on the venue's ticks. */
  price: Decimal;
  /** The price the preview shows: the book's average where it fills now, the limit where it rests. */
  quotedPrice: string | null;
  notionalUsd: string;
  fee: string;
  expectedFill: Quote['expectedFill'];
}

/**
 * The fields the venue's rules judge before anything is priced: every breach is a 400 naming the
 * field and the rule, as the paper venues answer bad fields. Leverage is the venue account's
 * setting per asset, never an order's; a market order is immediate-or-cancel.
 */
export function checkOrderFields(i: ExecutionInstruction, market: MarketDefinition, asset: VenueAsset): void {
  const m = i.metadata ?? {};
  if (m.leverage !== undefined) throw invalidField('metadata.leverage', 'is set on the Hyperliquid account for each asset, not per order: omit it');
  if (m.type === 'market' && m.timeInForce !== undefined && m.timeInForce !== 'ioc')
    throw invalidField('metadata.timeInForce', 'must be ioc (or omitted) for a market order: it is sent as an immediate-or-cancel limit');
  const size = sizeProblem(new Decimal(i.assetIn.amount), market.asset, asset.szDecimals);
  if (size) throw invalidField('assetIn.amount', size);
  if (m.type === 'limit' && m.price !== undefined) {
    const price = priceProblem(new Decimal(m.price), market.asset, asset.szDecimals);
    if (price) throw invalidField('metadata.price', price);
  }
}

/** The venue's price of a market order: the slippage bound on the book's price, rounded to a valid price toward the book (bounded, still marketable). */
export function marketOrderPrice(bound: string, side: 'buy' | 'sell', asset: VenueAsset): Decimal {
  return roundedPrice(new Decimal(bound), asset.szDecimals, side === 'buy' ? 'down' : 'up');
}

/**
 * The priced order as the venue would take it: the $10 minimum on the order's own price (a 400
 * naming the rule); a post-only order that crosses the book now is expected to be refused (the
 * preview is then not executable); the part of a good-till-cancelled order that does not cross
 * rests, priced at its limit.
 */
export function orderRules(i: ExecutionInstruction, paper: Quote, asset: VenueAsset): CheckedOrder {
  const m = i.metadata ?? {};
  const side = paper.side ?? m.side ?? 'buy';
  const amount = new Decimal(paper.amount);
  const limit = m.type === 'limit' && m.price !== undefined ? new Decimal(m.price) : undefined;
  const price = limit ?? marketOrderPrice(slippageBound(paper.price ?? '0', side, m.slippageBps), side, asset);
  const value = valueProblem(price.times(amount));
  if (value) throw invalidField('assetIn.amount', value);
  const tif = m.timeInForce ?? (limit ? 'gtc' : 'ioc');
  const now = paper.expectedFill;
  let expectedFill = now;
  if (tif === 'alo') {
    expectedFill =
      now && now.state !== 'rejected'
        ? { state: 'rejected', filledAmount: '0', reason: 'Post-only: the limit crosses the book now; Hyperliquid would refuse it.' }
        : restingExpectation(undefined);
  } else if (tif === 'gtc' && limit !== undefined) {
    expectedFill = restingExpectation(now);
  }
  const rests = limit !== undefined && tif !== 'ioc' && expectedFill?.state !== 'filled';
  const quotedPrice = rests ? limit.toString() : paper.price;
  const notional = new Decimal(quotedPrice ?? 0).times(amount);
  return {
    side,
    amount,
    price,
    quotedPrice,
    notionalUsd: notional.toFixed(2, Decimal.ROUND_UP),
    fee: notional.times(TAKER_FEE).toFixed(6),
    expectedFill,
  };
}

/** The price and size an order is sent with, checked again (an order is refused, never sent, when the venue would refuse it). */
export function orderPrice(order: RoutedOrder, asset: VenueAsset): { price: Decimal; size: Decimal } {
  const size = new Decimal(order.amount);
  const sizeRule = sizeProblem(size, order.market.asset, asset.szDecimals);
  if (sizeRule) throw new VenueRefusal('INVALID_REQUEST', `The size ${sizeRule}.`);
  if (order.price === null)
    throw new VenueRefusal('INVALID_REQUEST', 'The order has no price to send (no limit, and no book price to bound a market order by).');
  if (order.type === 'market') return { price: marketOrderPrice(order.price, order.side, asset), size };
  const price = new Decimal(order.price);
  const priceRule = priceProblem(price, order.market.asset, asset.szDecimals);
  if (priceRule) throw new VenueRefusal('INVALID_REQUEST', `The price ${priceRule}.`);
  return { price, size };
}
