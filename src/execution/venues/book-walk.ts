import { Decimal } from '../../domain/decimal.js';
import type { OrderBookLevel } from '../../domain/market.js';

/**
 * Takes up to `amount` from book levels (best first), stopping at `limit` if given: what an
 * immediate-or-cancel order would fill and at what average price.
 */
export function walkBook(levels: readonly OrderBookLevel[], amount: Decimal, side: 'buy' | 'sell', limit?: Decimal): { filled: Decimal; notional: Decimal } {
  let filled = new Decimal(0);
  let notional = new Decimal(0);
  for (const level of levels) {
    if (filled.gte(amount)) break;
    const price = new Decimal(level.price);
    if (limit && (side === 'buy' ? price.gt(limit) : price.lt(limit))) break;
    const take = Decimal.min(new Decimal(level.size), amount.minus(filled));
    filled = filled.plus(take);
    notional = notional.plus(take.mul(price));
  }
  return { filled, notional };
}
