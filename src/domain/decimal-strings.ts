/**
 * Exact comparison and sums of plain decimal strings ("64012.5", "-0.25") without decimal.js:
 * the history route merges thousands of stored candles per request, and a Decimal per field was
 * a quarter of its CPU. Results are written as decimal.js writes them (no trailing fraction zeros).
 */

/** Drops trailing zeros of the fraction (and a bare point), as `new Decimal(s).toString()` does. */
export function normalizeDecimal(s: string): string {
  if (s.indexOf('.') === -1) return s === '-0' ? '0' : s;
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48 /* 0 */) end--;
  if (s.charCodeAt(end - 1) === 46 /* . */) end--;
  const out = s.slice(0, end);
  return out === '-0' ? '0' : out;
}

/** Sign of a − b, exact. Doubles order distinct decimals correctly unless they round to the same value. */
export function compareDecimal(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (x !== y) return x < y ? -1 : 1;
  const [ia, sa] = scaled(a);
  const [ib, sb] = scaled(b);
  const d = sa > sb ? ia - ib * 10n ** BigInt(sa - sb) : ia * 10n ** BigInt(sb - sa) - ib;
  return d === 0n ? 0 : d < 0n ? -1 : 1;
}

/** The exact sum of decimal strings. */
export function sumDecimals(values: readonly string[]): string {
  let scale = 0;
  const parts = values.map((v) => {
    const p = scaled(v);
    if (p[1] > scale) scale = p[1];
    return p;
  });
  let total = 0n;
  for (const [int, s] of parts) total += s === scale ? int : int * 10n ** BigInt(scale - s);
  return formatScaled(total, scale);
}

function scaled(s: string): [bigint, number] {
  const dot = s.indexOf('.');
  if (dot === -1) return [BigInt(s), 0];
  return [BigInt(s.slice(0, dot) + s.slice(dot + 1)), s.length - dot - 1];
}

function formatScaled(value: bigint, scale: number): string {
  if (scale === 0) return value.toString();
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return normalizeDecimal(text);
}

/**
 * The exact ratio `numerator / denominator` of non-negative integers (on-chain amounts, rates and
 * prices), rounded half up to exactly `decimals` fraction digits: no float ever touches it.
 */
export function ratioToFixed(numerator: bigint, denominator: bigint, decimals: number): string {
  if (numerator < 0n || denominator <= 0n) throw new RangeError('ratioToFixed takes a non-negative numerator and a positive denominator');
  const scale = 10n ** BigInt(decimals);
  const units = (numerator * scale * 2n + denominator) / (denominator * 2n);
  if (decimals === 0) return units.toString();
  const digits = units.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
