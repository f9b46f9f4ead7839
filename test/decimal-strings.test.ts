import { describe, expect, it } from 'vitest';
import { Decimal } from '../src/domain/decimal.js';
import { mergeCandles } from '../src/domain/candle-fold.js';
import { compareDecimal, normalizeDecimal, sumDecimals } from '../src/domain/decimal-strings.js';
import { plainDecimal } from '../src/domain/validators.js';

// A deterministic spread of decimal strings: signs, scales 0-8, magnitudes 1e-3 to 1e7, ties.
function* samples(n: number): Generator<string> {
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < n; i++) yield ((next() - 0.3) * 10 ** Math.floor(next() * 10 - 3)).toFixed(Math.floor(next() * 9));
}

describe('decimal strings without decimal.js (history merging)', () => {
  const values = [...samples(3_000), '0', '-0', '1.10', '1.1', '1.100000000000000001', '1.1000000000000000001', '10', '10.000'];

  it('compare, sum and normalise exactly as decimal.js does', () => {
    for (let i = 0; i < values.length; i++) {
      const a = values[i]!;
      const b = values[(i * 7 + 3) % values.length]!;
      const c = values[(i * 13 + 5) % values.length]!;
      expect(compareDecimal(a, b)).toBe(new Decimal(a).cmp(b));
      expect(compareDecimal(a, a)).toBe(0);
      expect(sumDecimals([a, b, c])).toBe(new Decimal(a).plus(b).plus(c).toString());
      expect(normalizeDecimal(a)).toBe(new Decimal(a).toString());
    }
    expect(compareDecimal('1.100000000000000001', '1.1000000000000000001')).toBe(1);
  });

  it('merges candles as the decimal.js fold did', () => {
    const parts = [
      { start: 0, open: '100.50', high: '101.20', low: '99.90', close: '100.00', volume: '1.50' },
      { start: 60_000, open: '100.00', high: '101.2000001', low: '99.8', close: '100.70', volume: '2.25' },
    ];
    expect(mergeCandles(0, parts)).toEqual({ start: 0, open: '100.50', high: '101.2000001', low: '99.8', close: '100.70', volume: '3.75' });
    expect(mergeCandles(0, parts.slice(0, 1))).toEqual({ start: 0, open: '100.50', high: '101.2', low: '99.9', close: '100.00', volume: '1.5' });
  });
});

describe('plainDecimal', () => {
  it('writes what decimal.js would print in exponent form as plain digits', () => {
    expect(plainDecimal('1e+45')).toBe(`1${'0'.repeat(45)}`);
    expect(plainDecimal(new Decimal('1.5e-41'))).toBe(`0.${'0'.repeat(40)}15`);
    expect(plainDecimal('64012.5')).toBe('64012.5');
  });
});
