/**
 * A plain decimal string ("64012.50", "-0.25", "7") as a scaled integer and the count of digits
 * after its point, so stores can keep candle amounts in typed arrays and write the very same
 * string back on read. Only strings that round-trip exactly are encoded: leading zeros, "-0",
 * exponents or more than 2^53 in the integer refuse (the caller keeps such a value as a string).
 */

/** Largest count of fraction digits a scale byte holds. */
const MAX_SCALE = 254;

/** `[digits without the point, fraction digits]`, or undefined when `formatScaled` would not give `s` back. */
export function encodeScaled(s: string): [value: number, scale: number] | undefined {
  const dot = s.indexOf('.');
  const scale = dot === -1 ? 0 : s.length - dot - 1;
  if (scale > MAX_SCALE || (dot !== -1 && scale === 0)) return undefined;
  const digits = dot === -1 ? s : s.slice(0, dot) + s.slice(dot + 1);
  for (let i = digits.charCodeAt(0) === 45 /* - */ ? 1 : 0; i < digits.length; i++) {
    const c = digits.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) return undefined;
  return formatScaled(value, scale) === s ? [value, scale] : undefined;
}

/** The decimal string of `value` × 10^−scale with exactly `scale` fraction digits. */
export function formatScaled(value: number, scale: number): string {
  if (scale === 0) return String(value);
  const negative = value < 0;
  let digits = String(negative ? -value : value);
  if (digits.length <= scale) digits = '0'.repeat(scale + 1 - digits.length) + digits;
  const cut = digits.length - scale;
  return (negative ? '-' : '') + digits.slice(0, cut) + '.' + digits.slice(cut);
}
