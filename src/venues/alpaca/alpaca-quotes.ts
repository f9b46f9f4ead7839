import type { Candle } from '../../domain/candle.js';
import { Decimal } from '../../domain/decimal.js';
import { NO_KIND_FIGURES, type MarketDefinition, type MarketQuote, type OrderBookSnapshot } from '../../domain/market.js';

/** A trade, a top-of-book quote and a bar as the gateway keeps them: the venue's figures as decimal strings, its own times. */
export interface VenueTrade {
  price: string;
  time: number;
}
export interface VenueTopOfBook {
  bid: string;
  bidSize: string;
  ask: string;
  askSize: string;
  time: number;
}
export interface VenueBar {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  vwap: string | undefined;
}

/** What the gateway knows of one symbol: the newest of what the snapshots and the stream said. */
export interface SymbolState {
  trade?: VenueTrade;
  quote?: VenueTopOfBook;
  minuteBar?: VenueBar;
  dailyBar?: VenueBar;
  prevDailyBar?: VenueBar;
}

/**
 * A venue number the gateway may pass on, as a plain decimal string. Alpaca sends prices and sizes
 * as JSON numbers (the SDK parses them as doubles; decimal.js writes a double's shortest form);
 * anything else, negative or not finite, is refused (never guessed).
 */
export function venueNumber(value: unknown, what: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`Alpaca sent ${what} as ${JSON.stringify(value)}, not a number`);
  return new Decimal(value).toFixed();
}

/** A venue timestamp (a Date from the SDK's models and stream, or the RFC 3339 string of an undeserialised bar) in epoch ms. */
export function venueTime(value: unknown, what: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new Error(`Alpaca sent ${what} without a valid time`);
  return ms;
}

/** A bar from the REST models (`o`, `h`, …, `t`) or the stream (`open`, `high`, …, `timestamp`). */
export type WireBar =
  | { o: number; h: number; l: number; c: number; v: number; vw?: number; t: Date | string }
  | { open: number; high: number; low: number; close: number; volume: number; vwap?: number; timestamp: Date };

export function venueBar(bar: WireBar, what: string): VenueBar {
  const b = 'o' in bar ? bar : { o: bar.open, h: bar.high, l: bar.low, c: bar.close, v: bar.volume, vw: bar.vwap, t: bar.timestamp };
  return {
    time: venueTime(b.t, what),
    open: venueNumber(b.o, `${what} open`),
    high: venueNumber(b.h, `${what} high`),
    low: venueNumber(b.l, `${what} low`),
    close: venueNumber(b.c, `${what} close`),
    volume: venueNumber(b.v, `${what} volume`),
    vwap: b.vw === undefined || b.vw === null ? undefined : venueNumber(b.vw, `${what} vwap`),
  };
}

/** A stored candle from a venue bar: its start floored to the tier (a daily bar starts at New York midnight; its candle is its date's). */
export function barCandle(bar: VenueBar, resolutionMs: number): Candle {
  return {
    start: Math.floor(bar.time / resolutionMs) * resolutionMs,
    open: bar.open,
    high: bar.high,
    low: bar.low,
    close: bar.close,
    volume: bar.volume,
  };
}

/** The newer of two readings of the same thing (by the venue's time); the later one wins a tie. */
export function newer<T extends { time: number }>(current: T | undefined, next: T | undefined): T | undefined {
  if (!next) return current;
  return !current || next.time >= current.time ? next : current;
}

/** The price and its time: the last trade; else the quote's midpoint; else the latest bar's close. */
function lastPrice(s: SymbolState): { price: string; time: number } | undefined {
  if (s.trade) return { price: s.trade.price, time: s.trade.time };
  if (s.quote && Number(s.quote.bid) > 0 && Number(s.quote.ask) > 0)
    return { price: new Decimal(s.quote.bid).plus(s.quote.ask).div(2).toFixed(), time: s.quote.time };
  const bar = s.minuteBar ?? s.dailyBar;
  return bar && { price: bar.close, time: bar.time };
}

/**
 * A market's quote from the venue's own figures: the last trade's price at its time (the quote's
 * `sourceTime`, so freshness is the venue's); the change from the previous session's close (an
 * equity's daily change; the session's open when the venue gave no previous session); the latest
 * session's range and notional volume (its VWAP × its volume) from the venue's daily bar, the
 * range null when there is none. Equities pay no funding; the session is the market clock's.
 */
export function equityQuote(market: MarketDefinition, s: SymbolState, sessionOpen: boolean | null): MarketQuote | undefined {
  const last = lastPrice(s);
  if (!last) return undefined;
  const reference = s.prevDailyBar?.close ?? s.dailyBar?.open;
  const change = reference === undefined || new Decimal(reference).isZero() ? '0' : new Decimal(last.price).minus(reference).div(reference).mul(100).toFixed(4);
  const day = s.dailyBar;
  return {
    marketId: market.id,
    price: last.price,
    change24hPct: change,
    high24h: day?.high ?? null,
    low24h: day?.low ?? null,
    volume24h: day ? new Decimal(day.volume).mul(day.vwap ?? day.close).toFixed(2) : '0',
    // Equities pay no funding and lend nothing.
    ...NO_KIND_FIGURES,
    sessionOpen,
    volumeDelta: '0',
    sourceTime: last.time,
  };
}

/**
 * The order book Alpaca's stock data has: its top of book (IEX's best bid and offer on the free
 * feed, the national best on SIP), one level a side at the quote's time. A side the venue quotes
 * empty (price or size 0) is left empty: no level is ever padded or made up.
 */
export function topOfBook(marketId: string, q: VenueTopOfBook): Omit<OrderBookSnapshot, 'receivedAt'> {
  const side = (price: string, size: string) => (Number(price) > 0 && Number(size) > 0 ? [{ price, size, cumulativeSize: size }] : []);
  return { marketId, bids: side(q.bid, q.bidSize), asks: side(q.ask, q.askSize), sourceTime: q.time };
}

/** The market id of an Alpaca symbol: `<SYMBOL>-USD`, as the simulated equities name theirs. */
export const equityMarketId = (symbol: string) => `${symbol}-USD`;

/** An Alpaca symbol as a listed equity: whole shares, cents (four decimals under a dollar, as US quotes are, by its first price). */
export function equityMarket(symbol: string, venueId: string, first: SymbolState): MarketDefinition {
  return {
    id: equityMarketId(symbol),
    asset: symbol,
    quote: 'USD',
    kind: 'equity',
    protocolId: venueId,
    sourceId: venueId,
    priceDecimals: Number(lastPrice(first)?.price ?? 1) < 1 ? 4 : 2,
    sizeDecimals: 0,
    // Only the simulators use these: a real venue's prices are its own.
    basePrice: 0,
    volatility: 0,
    volumePerMinute: 0,
    // Its book is the venue's top of book (see topOfBook).
    hasOrderBook: true,
  };
}
