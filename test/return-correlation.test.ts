import { describe, expect, it } from 'vitest';
import { dailyReturns, pearson, returnCorrelation, type DailyClose } from '../src/market-data/return-correlation.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const closes = (...prices: (number | null)[]): DailyClose[] => prices.flatMap((p, i) => (p === null ? [] : [{ start: T0 + i * DAY, close: String(p) }]));

describe('daily return correlation', () => {
  it('matches a hand-computed Pearson r of simple returns', () => {
    // Returns: A = 0.1, -0.1, 0.1 and B = 0.04, 0, 0.05.
    // Means 1/30 and 0.03; Σdxdy = 0.006, Σdx² = 2/75, Σdy² = 0.0014, so r = 0.006 / √(2/75 · 0.0014) = 0.981980…
    const a = dailyReturns(closes(100, 110, 99, 108.9), 'simple');
    const b = dailyReturns(closes(50, 52, 52, 54.6), 'simple');
    expect([...a.values()].map((r) => Number(r.toFixed(12)))).toEqual([0.1, -0.1, 0.1]);
    const r = returnCorrelation(a, b);
    expect(r?.observations).toBe(3);
    expect(r?.correlation).toBeCloseTo(0.98198050606, 10);
  });

  it('matches a hand-computed Pearson r of log returns', () => {
    // Log returns: A = ln 2, −ln 2, ln 2, 0 and B = ln 3, 0, 0, ln 3 (prices chosen for exact logs).
    // With u = ln 2, v = ln 3: means u/4 and v/2; Σdxdy = uv/2, Σdx² = 11u²/4, Σdy² = v², so r = (1/2)/√(11/4) = 1/√11.
    const a = dailyReturns(closes(10, 20, 10, 20, 20), 'log');
    const b = dailyReturns(closes(1, 3, 3, 3, 9), 'log');
    const r = returnCorrelation(a, b);
    expect(r?.observations).toBe(4);
    expect(r?.correlation).toBeCloseTo(1 / Math.sqrt(11), 12);
  });

  it('gives ±1 for prices that move together or against each other, whatever the scale', () => {
    const a = closes(100, 104, 98, 101, 107, 103);
    const squared = a.map((c) => ({ ...c, close: String(Number(c.close) ** 2) }));
    const inverse = a.map((c) => ({ ...c, close: String(1 / Number(c.close)) }));
    const ra = dailyReturns(a, 'log');
    expect(returnCorrelation(ra, dailyReturns(squared, 'log'))?.correlation).toBeCloseTo(1, 12);
    expect(returnCorrelation(ra, dailyReturns(inverse, 'log'))?.correlation).toBeCloseTo(-1, 12);
  });

  it('spans a day without a candle with one return and pairs returns by the day they end on', () => {
    // B has no candle on day 2 (a weekend, an outage): its returns end on days 1, 3 and 4, the one of day 3 spanning two days.
    const b = dailyReturns(closes(100, 101, null, 103, 104), 'simple');
    expect([...b.keys()]).toEqual([T0 + DAY, T0 + 3 * DAY, T0 + 4 * DAY]);
    expect(b.get(T0 + 3 * DAY)).toBeCloseTo(103 / 101 - 1, 15);
    const a = dailyReturns(closes(10, 11, 12, 13, 14), 'simple');
    expect(returnCorrelation(a, b)?.observations).toBe(3);
    // Two common days are too few for a correlation.
    expect(returnCorrelation(a, dailyReturns(closes(null, null, 5, 6, 8), 'simple'))).toBeUndefined();
  });

  it('is undefined for a constant series or too few points', () => {
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeUndefined();
    expect(pearson([1], [2])).toBeUndefined();
    const flat = dailyReturns(closes(5, 5, 5, 5), 'simple');
    expect(returnCorrelation(flat, dailyReturns(closes(1, 2, 3, 4), 'simple'))).toBeUndefined();
  });
});
