import { Decimal } from './decimal.js';
import type { Candle, PriceObservation } from './candle.js';

/** Folds an observation into the candle of its bucket (or opens one); shared by every store. */
export function foldObservation(current: Candle | undefined, bucketStart: number, o: PriceObservation): Candle {
  if (!current || current.start !== bucketStart) {
    return { start: bucketStart, open: o.price, high: o.price, low: o.price, close: o.price, volume: o.volume };
  }
  const p = new Decimal(o.price);
  return {
    start: current.start,
    open: current.open,
    high: p.gt(current.high) ? o.price : current.high,
    low: p.lt(current.low) ? o.price : current.low,
    close: o.price,
    volume: new Decimal(current.volume).plus(o.volume).toString(),
  };
}

/** Merges consecutive candles (oldest first) into one. */
export function mergeCandles(start: number, parts: readonly Candle[]): Candle {
  let high = new Decimal(parts[0]!.high);
  let low = new Decimal(parts[0]!.low);
  let volume = new Decimal(0);
  for (const c of parts) {
    high = Decimal.max(high, c.high);
    low = Decimal.min(low, c.low);
    volume = volume.plus(c.volume);
  }
  return { start, open: parts[0]!.open, high: high.toString(), low: low.toString(), close: parts[parts.length - 1]!.close, volume: volume.toString() };
}
