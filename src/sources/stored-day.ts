import { compareDecimal } from '../domain/decimal-strings.js';
import type { CandleStore } from '../market-data/candle-store.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A market's last 24 h as its stored candles tell it: high, low and the price it opened at. */
export interface StoredDay {
  high: string;
  low: string;
  open: string;
}

/**
 * The last 24 h of a market from its stored hourly candles (the open hour included), or
 * undefined until 24 h of them are stored: a range is never made up from less.
 */
export async function storedDay(candles: CandleStore, marketId: string, now: number): Promise<StoredDay | undefined> {
  const hours = await candles.range(marketId, HOUR, now - DAY, now);
  if (hours.length === 0 || hours[0]!.start > now - DAY + HOUR) return undefined;
  let high = hours[0]!.high;
  let low = hours[0]!.low;
  for (const c of hours) {
    if (compareDecimal(c.high, high) > 0) high = c.high;
    if (compareDecimal(c.low, low) < 0) low = c.low;
  }
  return { high, low, open: hours[0]!.open };
}
