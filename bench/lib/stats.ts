export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export interface Spread {
  count: number;
  p50: number;
  p99: number;
  max: number;
  min: number;
}

export function spread(values: readonly number[]): Spread {
  return {
    count: values.length,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    // A loop, not Math.max(...values): hundreds of thousands of receipts exceed the argument limit.
    max: values.length ? values.reduce((a, b) => (b > a ? b : a)) : Number.NaN,
    min: values.length ? values.reduce((a, b) => (b < a ? b : a)) : Number.NaN,
  };
}

/** A number for a table cell: NaN as "n/a", otherwise fixed digits. */
export function fmt(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
