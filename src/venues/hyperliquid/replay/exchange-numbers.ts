import { Decimal } from 'decimal.js';

/** Exact decimals for the fake's accounts (never exponent notation). */
export const D = Decimal.clone({ precision: 40, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof D>;

/** A decimal as the venue writes one in account answers: trailing zeros cut, at least one decimal ("0.0", "1.0", "25.585"). */
export function wireDecimal(value: Dec, maxDecimals = 8): string {
  const text = value.toDecimalPlaces(maxDecimals, D.ROUND_HALF_EVEN).toFixed();
  if (!text.includes('.')) return `${text === '-0' ? '0' : text}.0`;
  const trimmed = text.replace(/0+$/, '');
  return trimmed.endsWith('.') ? `${trimmed}0` : trimmed;
}

/** Whether `p` is a perp price the venue takes: at most 5 significant figures (integers always) and `6 - szDecimals` decimals. */
export function validPerpPrice(p: string, szDecimals: number): boolean {
  if (!/^\d+(\.\d+)?$/.test(p)) return false;
  const price = new D(p);
  if (price.lte(0)) return false;
  if (price.isInteger()) return true;
  return price.decimalPlaces() <= 6 - szDecimals && price.precision(false) <= 5;
}

/** Whether `s` is a size the venue takes: positive, at most `szDecimals` decimals. */
export function validSize(s: string, szDecimals: number): boolean {
  if (!/^\d+(\.\d+)?$/.test(s)) return false;
  const size = new D(s);
  return size.gt(0) && size.decimalPlaces() <= szDecimals;
}
