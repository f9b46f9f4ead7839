/**
 * Hyperliquid's number strings: decimals as strings, at least one decimal digit ("30135.0",
 * "1417.0", as the recorded answers have them), never an exponent. Perp prices carry at most 5
 * significant figures and at most `6 - szDecimals` decimals (integers are always allowed); sizes
 * carry at most `szDecimals` decimals.
 */

/** `value` with at most `decimals` decimals, trailing zeros cut to a single ".0". */
export function decimalString(value: number, decimals: number): string {
  const fixed = value.toFixed(Math.max(0, Math.min(decimals, 20)));
  if (!fixed.includes('.')) return `${fixed}.0`;
  const trimmed = fixed.replace(/0+$/, '');
  const text = trimmed.endsWith('.') ? `${trimmed}0` : trimmed;
  return text === '-0.0' ? '0.0' : text;
}

/** The number of decimals a perp price of this size may carry. */
export function priceDecimals(value: number, szDecimals: number): number {
  const abs = Math.abs(value);
  if (abs === 0) return Math.max(0, 6 - szDecimals);
  const magnitude = Math.floor(Math.log10(abs));
  return Math.max(0, Math.min(6 - szDecimals, 4 - magnitude));
}

/** A valid perp price near `value` (5 significant figures, `6 - szDecimals` decimals at most). */
export function roundPrice(value: number, szDecimals: number): number {
  if (Math.abs(value) >= 100_000) return Math.round(value);
  const factor = 10 ** priceDecimals(value, szDecimals);
  return Math.round(value * factor) / factor;
}

export function priceString(value: number, szDecimals: number): string {
  const rounded = roundPrice(value, szDecimals);
  return decimalString(rounded, priceDecimals(rounded, szDecimals));
}

/** The smallest price step at this price. */
export function priceTick(value: number, szDecimals: number): number {
  if (Math.abs(value) >= 100_000) return 1;
  return 10 ** -priceDecimals(value, szDecimals);
}

export function sizeString(value: number, szDecimals: number): string {
  return decimalString(value, szDecimals);
}

/** A mid price: the midpoint of two valid prices, so it may carry one decimal more (recorded "0.186535"). */
export function midString(value: number, szDecimals: number): string {
  const decimals = priceDecimals(value, szDecimals) + 1;
  return decimalString(Math.round(value * 10 ** decimals) / 10 ** decimals, decimals);
}
