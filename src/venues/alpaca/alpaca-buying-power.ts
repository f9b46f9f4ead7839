import type { trading } from '@alpacahq/alpaca-trade-api';
import { Decimal } from '../../domain/decimal.js';

export interface AlpacaOrderCost {
  symbol: string;
  side: 'buy' | 'sell';
  amount: Decimal;
  /** What a buy needs: the limit price times the amount for a limit, the priced notional for a market order. */
  costUsd: Decimal;
}

/**
 * What the Alpaca account lacks for an order, or null: a buy needs its cost in buying power; a
 * sell needs the shares held and not already held for other orders, unless the account may
 * short (Alpaca then decides, and refuses at the order if it must). Alpaca's own check at the
 * order stays the truth; this one refuses at preview what it would surely refuse.
 */
export function alpacaShortfall(order: AlpacaOrderCost, account: trading.Account, positions: readonly trading.Position[]): string | null {
  if (order.side === 'buy') {
    const buyingPower = new Decimal(account.buyingPower ?? '0');
    if (order.costUsd.lte(buyingPower)) return null;
    return `Alpaca buying power is ${buyingPower.toString()} USD; the order needs ${order.costUsd.toFixed(2, Decimal.ROUND_UP)} USD.`;
  }
  if (account.shortingEnabled === true) return null;
  const position = positions.find((p) => p.symbol === order.symbol && p.side === 'long');
  const free = position ? new Decimal(position.qtyAvailable ?? position.qty) : new Decimal(0);
  if (order.amount.lte(free)) return null;
  return `Alpaca holds ${free.toString()} ${order.symbol} free to sell and this account may not short; the order sells ${order.amount.toString()}.`;
}
