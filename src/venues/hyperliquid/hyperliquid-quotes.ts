import type { Candle } from '../../domain/candle.js';
import { Decimal } from '../../domain/decimal.js';
import { NO_KIND_FIGURES, type MarketDefinition, type MarketQuote } from '../../domain/market.js';
import { DECIMAL_PATTERN } from '../../domain/validators.js';

/** One perpetual's context as `metaAndAssetCtxs` answers it (decimal strings). */
export interface PerpContext {
  prevDayPx: string;
  dayNtlVlm: string;
  markPx: string;
  midPx: string | null;
  funding: string;
  openInterest: string;
  oraclePx: string;
}

const HOUR = 3_600_000;

/** A venue number the gateway may pass on: a plain decimal string, else the answer is refused (never guessed). */
export function venueDecimal(value: unknown, what: string): string {
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) throw new Error(`Hyperliquid sent ${what} as ${JSON.stringify(value)}, not a decimal`);
  return value;
}

/** A candle as the venue sends it (candleSnapshot and the candle stream): open time and decimal strings. */
export interface WireCandle {
  t: number;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
}

/** A venue candle as stored, each figure checked (a candle with a figure that is not a decimal is refused). */
export function venueCandle(c: WireCandle, coin: string): Candle {
  return {
    start: c.t,
    open: venueDecimal(c.o, `${coin} candle open`),
    high: venueDecimal(c.h, `${coin} candle high`),
    low: venueDecimal(c.l, `${coin} candle low`),
    close: venueDecimal(c.c, `${coin} candle close`),
    volume: venueDecimal(c.v, `${coin} candle volume`),
  };
}

/**
 * A market's quote from the venue's own figures: the mid (or mark) price, the change from the
 * previous day's price, the day's notional volume, the hourly funding rate, open interest as
 * notional at the mark price, the next funding on the hour (Hyperliquid settles hourly). The
 * 24 h high and low are the venue's candles', when stored (null until then); `sourceTime` is the
 * venue's time where the answer had one.
 */
export function perpQuote(
  market: MarketDefinition,
  ctx: PerpContext,
  at: { sourceTime: number; mid?: string; range24h?: { high: string; low: string } },
): MarketQuote {
  const mark = venueDecimal(ctx.markPx, `${market.asset} markPx`);
  const price = at.mid ?? (ctx.midPx === null ? mark : venueDecimal(ctx.midPx, `${market.asset} midPx`));
  const prevDay = venueDecimal(ctx.prevDayPx, `${market.asset} prevDayPx`);
  const change = new Decimal(prevDay).isZero() ? '0' : new Decimal(price).minus(prevDay).div(prevDay).mul(100).toFixed(4);
  return {
    marketId: market.id,
    price,
    change24hPct: change,
    high24h: at.range24h?.high ?? null,
    low24h: at.range24h?.low ?? null,
    volume24h: venueDecimal(ctx.dayNtlVlm, `${market.asset} dayNtlVlm`),
    ...NO_KIND_FIGURES,
    fundingRate: venueDecimal(ctx.funding, `${market.asset} funding`),
    nextFundingAt: Math.floor(at.sourceTime / HOUR) * HOUR + HOUR,
    openInterest: new Decimal(venueDecimal(ctx.openInterest, `${market.asset} openInterest`)).mul(mark).toFixed(2),
    volumeDelta: '0',
    sourceTime: at.sourceTime,
  };
}
