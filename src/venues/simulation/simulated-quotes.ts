import { NO_KIND_FIGURES, type MarketDefinition, type MarketQuote, type OrderBookLevel } from '../../domain/market.js';
import { isSessionOpen, lastTradingInstant } from './equity-session.js';
import { noise, priceAt, seedOf, TIME, volumeBetween } from './price-process.js';

/** Levels a simulated venue publishes per side; the public read caps at 100 (spec). */
export const SIMULATED_BOOK_DEPTH = 120;

/** Price at `t` as the venue trades it: equities do not move outside their session. */
export function tradedPriceAt(m: MarketDefinition, t: number): number {
  return priceAt(m, m.kind === 'equity' ? lastTradingInstant(t) : t);
}

/** Number#toFixed rounds the exact binary value: deterministic, and far cheaper than a Decimal per figure. */
function fixed(value: number, decimals: number): string {
  return value.toFixed(decimals);
}

export function quoteOf(m: MarketDefinition, now: number, since: number): MarketQuote {
  const price = tradedPriceAt(m, now);
  const dayAgo = tradedPriceAt(m, now - TIME.DAY);
  let high = price;
  let low = price;
  let volume = 0;
  for (let t = now - TIME.DAY; t < now; t += 15 * TIME.MINUTE) {
    const p = tradedPriceAt(m, t);
    high = Math.max(high, p);
    low = Math.min(low, p);
    if (m.kind !== 'equity' || isSessionOpen(t)) volume += volumeBetween(m, t, 15 * TIME.MINUTE);
  }
  const quote: MarketQuote = {
    marketId: m.id,
    price: fixed(price, m.priceDecimals),
    change24hPct: fixed(((price - dayAgo) / dayAgo) * 100, 4),
    high24h: fixed(high, m.priceDecimals),
    low24h: fixed(low, m.priceDecimals),
    volume24h: fixed(volume, 2),
    ...NO_KIND_FIGURES,
    volumeDelta: fixed(m.kind !== 'equity' || isSessionOpen(now) ? volumeBetween(m, since, Math.max(0, now - since)) : 0, 2),
    sourceTime: now,
  };
  if (m.kind === 'perpetual') {
    quote.fundingRate = fixed(fundingRateAt(m, now), 8);
    const settledAt = Math.floor(now / TIME.HOUR) * TIME.HOUR;
    quote.nextFundingAt = settledAt + TIME.HOUR;
    quote.lastFunding = { time: settledAt, rate: fixed(fundingRateAt(m, settledAt - 1), 8) };
    quote.openInterest = fixed(m.volumePerMinute * 600 * (0.8 + 0.4 * noise(seedOf(m.id), Math.floor(now / TIME.HOUR))), 2);
  }
  if (m.kind === 'equity') quote.sessionOpen = isSessionOpen(now);
  if (m.kind === 'lending') Object.assign(quote, lendingRatesAt(m, now));
  return quote;
}

/** Hourly funding rate of a perpetual: follows the premium of the price over its slow trend. */
export function fundingRateAt(m: MarketDefinition, t: number): number {
  const hour = Math.floor(t / TIME.HOUR) * TIME.HOUR;
  const premium = priceAt(m, hour) / priceAt(m, hour - 8 * TIME.HOUR) - 1;
  return Math.max(-0.00075, Math.min(0.00075, 0.0000125 + premium * 0.01));
}

/** Utilisation-based rates with a kink at 80 % (the usual lending-pool curve). */
export function lendingRatesAt(m: MarketDefinition, t: number): Pick<MarketQuote, 'supplyApy' | 'borrowApy' | 'utilization'> {
  const u = 0.6 + 0.25 * Math.sin((2 * Math.PI * t) / (3 * TIME.DAY) + (seedOf(m.id) % 628) / 100);
  const kink = 0.8;
  const borrow = u <= kink ? 0.02 + 0.06 * (u / kink) : 0.08 + 0.6 * ((u - kink) / (1 - kink));
  const supply = borrow * u * (1 - 0.1);
  return { utilization: fixed(u, 4), borrowApy: fixed(borrow * 100, 4), supplyApy: fixed(supply * 100, 4) };
}

/**
 * Books in integer units (price ticks of 10^-priceDecimals, sizes of 10^-sizeDecimals): a book is
 * 240 levels, and a Decimal per figure made one ingest round of 1,000 markets take seconds. Every
 * unit count stays far below 2^53, so the integer sums (cumulative sizes) are exact.
 */
export function bookOf(m: MarketDefinition, now: number): { bids: OrderBookLevel[]; asks: OrderBookLevel[] } {
  const mid = tradedPriceAt(m, now);
  const midTicks = mid * 10 ** m.priceDecimals;
  // One step is 0.01 % of the mid, at least one tick.
  const step = Math.max(1, Math.round(midTicks * 0.0001));
  const seed = seedOf(m.id) ^ Math.floor(now / 1000);
  const sizeScale = 10 ** m.sizeDecimals;
  const unit = m.volumePerMinute / mid / 400;
  const side = (sign: 1 | -1): OrderBookLevel[] => {
    const levels: OrderBookLevel[] = [];
    let cumulative = 0;
    // The best level lies half a step away from the mid, rounded away from it to a whole tick.
    const best = sign > 0 ? Math.ceil(midTicks + step / 2) : Math.floor(midTicks - step / 2);
    for (let i = 0; i < SIMULATED_BOOK_DEPTH; i++) {
      const size = Math.max(1, Math.floor(unit * (0.2 + 2 * noise(seed + sign, i)) * (1 + i / 40) * sizeScale));
      cumulative += size;
      levels.push({
        price: unitsToDecimal(best + sign * step * i, m.priceDecimals),
        size: unitsToDecimal(size, m.sizeDecimals),
        cumulativeSize: unitsToDecimal(cumulative, m.sizeDecimals),
      });
    }
    return levels;
  };
  return { bids: side(-1), asks: side(1) };
}

/** A non-negative integer count of 10^-decimals units as a decimal string with exactly `decimals` places. */
function unitsToDecimal(units: number, decimals: number): string {
  const digits = String(units);
  if (decimals === 0) return digits;
  const padded = digits.length > decimals ? digits : digits.padStart(decimals + 1, '0');
  return `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}
