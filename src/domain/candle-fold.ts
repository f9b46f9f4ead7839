import type { Candle, PriceObservation } from './candle.js';
import { compareDecimal, normalizeDecimal, sumDecimals } from './decimal-strings.js';

/** Folds an observation into the candle of its bucket (or opens one); shared by every store. */
export function foldObservation(current: Candle | undefined, bucketStart: number, o: PriceObservation): Candle {
  const observed = { start: bucketStart, open: o.price, high: o.price, low: o.price, close: o.price, volume: o.volume };
  return current?.start === bucketStart ? foldCandle(current, observed) : observed;
}

/** Merges consecutive candles (oldest first) into one; exact, without a Decimal per field (src/domain/decimal-strings.ts). */
export function mergeCandles(start: number, parts: readonly Candle[]): Candle {
  const first = parts[0]!;
  let high = first.high;
  let low = first.low;
  for (let i = 1; i < parts.length; i++) {
    const c = parts[i]!;
    if (compareDecimal(c.high, high) > 0) high = c.high;
    if (compareDecimal(c.low, low) < 0) low = c.low;
  }
  const volume = parts.length === 1 ? normalizeDecimal(first.volume) : sumDecimals(parts.map((c) => c.volume));
  return { start, open: first.open, high: normalizeDecimal(high), low: normalizeDecimal(low), close: parts[parts.length - 1]!.close, volume };
}

/**
 * Live candles recorded after a backfill, appended to it as if the backfill had been stored first
 * and the observations folded in after: a live candle of the backfill's last bucket folds into it
 * (`foldObservation` one by one gives the same open, high, low and exact volume), earlier ones are
 * dropped (their observations would have come late for a closed bucket), later ones follow.
 */
export function appendLiveCandles(backfilled: readonly Candle[], live: readonly Candle[]): Candle[] {
  const out = backfilled.slice();
  const last = backfilled[backfilled.length - 1];
  for (const c of live) {
    if (!last) out.push(c);
    else if (c.start === last.start) out[out.length - 1] = foldCandle(last, c);
    else if (c.start > last.start) out.push(c);
  }
  return out;
}

/** A candle followed by a later candle of the same bucket, as one. */
function foldCandle(earlier: Candle, later: Candle): Candle {
  return {
    start: earlier.start,
    open: earlier.open,
    high: compareDecimal(later.high, earlier.high) > 0 ? later.high : earlier.high,
    low: compareDecimal(later.low, earlier.low) < 0 ? later.low : earlier.low,
    close: later.close,
    volume: sumDecimals([earlier.volume, later.volume]),
  };
}
