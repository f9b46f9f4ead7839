import { freshnessAt, MAX_AGE_MS, type Freshness, type FreshnessBasis } from '../domain/freshness.js';
import type { MarketDefinition, OrderBookLevel, OrderBookSnapshot } from '../domain/market.js';
import type { SourceStatus } from '../domain/source-health.js';
import { snapshotTime } from './market-view.js';

/** Spec, order book rule 1: at most 100 cumulative levels a side. */
export const PUBLIC_BOOK_LEVELS = 100;

export interface OrderBookView {
  marketId: string;
  asset: string;
  bids: OrderBookLevel[];
  asks: OrderBookLevel[];
  depth: number;
  freshness: Freshness;
}

const capped = new WeakMap<OrderBookSnapshot, { bids: OrderBookLevel[]; asks: OrderBookLevel[] }>();

export function orderBookView(m: MarketDefinition, book: OrderBookSnapshot, status: SourceStatus, now: number): OrderBookView {
  let sides = capped.get(book);
  if (!sides) {
    sides = { bids: book.bids.slice(0, PUBLIC_BOOK_LEVELS), asks: book.asks.slice(0, PUBLIC_BOOK_LEVELS) };
    capped.set(book, sides);
  }
  return {
    marketId: m.id,
    asset: m.asset,
    ...sides,
    depth: Math.max(sides.bids.length, sides.asks.length),
    freshness: freshnessAt(orderBookFreshnessBasis(book, status), now),
  };
}

/** What a book's freshness is computed from: its snapshot time and source status, aged against the order-book max age. */
export function orderBookFreshnessBasis(book: OrderBookSnapshot, status: SourceStatus): FreshnessBasis {
  return { asOf: snapshotTime(book), sourceStatus: status, maxAgeMs: MAX_AGE_MS.orderBook };
}
