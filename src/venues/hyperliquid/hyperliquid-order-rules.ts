import { Decimal } from '../../domain/decimal.js';

/**
 * Hyperliquid's order rules for perpetuals (docs "Tick and lot size", "Error responses"): a
 * price carries at most 5 significant figures and at most 6 − szDecimals decimals (an integer
 * price is always allowed); a size at most szDecimals decimals; an order is worth at least $10.
 * The venue refuses anything else ("Order has invalid price.", "Order has invalid size.",
 * "Order must have minimum value of $10."), so the gateway checks them at preview.
 */
export const MIN_ORDER_VALUE_USD = 10;
const MAX_SIGNIFICANT_FIGURES = 5;
const MAX_PERP_DECIMALS = 6;

/** The decimals a perp price may carry for an asset of `szDecimals`. */
export const maxPriceDecimals = (szDecimals: number) => Math.max(0, MAX_PERP_DECIMALS - szDecimals);

/** Why `price` breaks the tick rule, in words naming the rule, or null when the venue takes it. */
export function priceProblem(price: Decimal, coin: string, szDecimals: number): string | null {
  if (price.lte(0)) return 'must be positive';
  if (price.isInteger()) return null;
  const decimals = maxPriceDecimals(szDecimals);
  if (price.decimalPlaces() > decimals)
    return `has ${price.decimalPlaces()} decimals: Hyperliquid's tick rule allows at most ${decimals} for ${coin} (6 − szDecimals ${szDecimals}; integer prices always)`;
  if (price.precision(false) > MAX_SIGNIFICANT_FIGURES)
    return `has ${price.precision(false)} significant figures: Hyperliquid's tick rule allows at most ${MAX_SIGNIFICANT_FIGURES} (integer prices always)`;
  return null;
}

/** Why `size` breaks the lot rule, or null. */
export function sizeProblem(size: Decimal, coin: string, szDecimals: number): string | null {
  if (size.decimalPlaces() > szDecimals) return `has ${size.decimalPlaces()} decimals: Hyperliquid's lot size for ${coin} is szDecimals ${szDecimals}`;
  return null;
}

/** Why an order worth `value` USD is too small, or null. */
export function valueProblem(value: Decimal): string | null {
  if (value.gte(MIN_ORDER_VALUE_USD)) return null;
  return `is worth ${value.toFixed(2)} USD: Hyperliquid's minimum order value is $${MIN_ORDER_VALUE_USD}`;
}

/**
 * The nearest valid price on the side of `direction` (down: never above `value`; up: never
 * below): at most 5 significant figures and the asset's decimals, integers past 5 digits.
 */
export function roundedPrice(value: Decimal, szDecimals: number, direction: 'down' | 'up'): Decimal {
  const mode = direction === 'down' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP;
  const integerDigits = value.e + 1;
  const decimals = Math.max(0, Math.min(maxPriceDecimals(szDecimals), MAX_SIGNIFICANT_FIGURES - integerDigits));
  return value.toDecimalPlaces(decimals, mode);
}

/** A number as the venue's order action carries it: plain decimal, trailing zeros cut ("30000.5", "0.001", "60000"). */
export function wireNumber(value: Decimal): string {
  const text = value.toFixed();
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
