/** How a day's return is measured from two consecutive daily closes. */
export type ReturnKind = 'log' | 'simple';

/** A closed daily candle's close: its bucket start (epoch ms) and close price (decimal string). */
export interface DailyClose {
  start: number;
  close: string;
}

export interface ReturnCorrelation {
  /** Pearson's r of the two markets' returns on the days both have, in [-1, 1]. */
  correlation: number;
  /** Days with a return in both series (the sample size behind `correlation`). */
  observations: number;
}

/** Fewer common returns than this say nothing (two points always correlate at ±1). */
export const MIN_CORRELATION_OBSERVATIONS = 3;

/**
 * Daily returns keyed by the day they end on: one per pair of consecutive stored closes, so a day
 * without a candle (a weekend of an equity market, a venue outage) is spanned by one return, as
 * returns between trading days are. Closes must be in time order. Prices are parsed to float64,
 * whose 15–17 significant digits are far more than the gateway's price decimals; a non-positive
 * close gives no return.
 */
export function dailyReturns(closes: readonly DailyClose[], kind: ReturnKind): Map<number, number> {
  const returns = new Map<number, number>();
  for (let i = 1; i < closes.length; i++) {
    const p0 = Number(closes[i - 1]!.close);
    const p1 = Number(closes[i]!.close);
    if (!(p0 > 0) || !(p1 > 0)) continue;
    returns.set(closes[i]!.start, kind === 'log' ? Math.log(p1 / p0) : p1 / p0 - 1);
  }
  return returns;
}

/**
 * Pearson's correlation coefficient of two equally long samples, by the two-pass formula (means
 * first, then centred sums) for stability; undefined with fewer than two points or when either
 * sample is constant (the coefficient is not defined). Clamped to [-1, 1] against rounding.
 */
export function pearson(xs: readonly number[], ys: readonly number[]): number | undefined {
  const n = xs.length;
  if (n !== ys.length || n < 2) return undefined;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return undefined;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * The correlation of two markets' daily returns over the days both have a return, or undefined
 * when they share fewer than MIN_CORRELATION_OBSERVATIONS days or either is constant.
 */
export function returnCorrelation(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): ReturnCorrelation | undefined {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [day, x] of a) {
    const y = b.get(day);
    if (y === undefined) continue;
    xs.push(x);
    ys.push(y);
  }
  if (xs.length < MIN_CORRELATION_OBSERVATIONS) return undefined;
  const correlation = pearson(xs, ys);
  return correlation === undefined ? undefined : { correlation, observations: xs.length };
}
