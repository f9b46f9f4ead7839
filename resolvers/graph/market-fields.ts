import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { orderBookView, type OrderBookView } from '../../src/market-data/order-book-view.js';
import type { MarketView } from '../../src/market-data/market-view.js';
import { invalidParameter } from '../../src/errors/error-factories.js';
import { parseHistoryQuery, type MarketHistory } from '../public/market-history.js';
import type { PublicProtocol } from '../public/protocols.js';
import { loadersOf } from './graph-loaders.js';

const BOOK_CODE = 'invalid_orderbook_depth';

/**
 * A market's order book cut to `depth` levels a side, or null when it has none or its source is
 * down (the REST route answers 404 or 503 there; a dashboard row just shows no book).
 */
export async function marketOrderBook(
  ctx: GatewayContext,
  info: GraphQLResolveInfo,
  m: MarketView,
  depth: number | null | undefined,
): Promise<OrderBookView | null> {
  if (depth != null && (depth < 1 || depth > 100)) throw invalidParameter(BOOK_CODE, 'depth', `'depth' must be an integer from 1 to 100`);
  const market = ctx.services.reader.directory.resolve(m.id);
  if (!market?.hasOrderBook) return null;
  const loaders = loadersOf(ctx, info);
  const [health, book] = await Promise.all([loaders.health(), loaders.books.load(market.id)]);
  const status = health.get(market.sourceId)?.status ?? 'unknown';
  if (!book || status === 'down') return null;
  const view = orderBookView(market, book, status, ctx.services.clock.now());
  if (depth == null) return view;
  const bids = view.bids.slice(0, depth);
  const asks = view.asks.slice(0, depth);
  return { ...view, bids, asks, depth: Math.max(bids.length, asks.length) };
}

export interface MarketHistoryArgs {
  resolution?: string | null;
  from?: string | null;
  to?: string | null;
  limit?: number | null;
}

/** A market's stored candles; the same validation (and error code) as the REST history route. */
export async function marketCandles(ctx: GatewayContext, info: GraphQLResolveInfo, m: MarketView, args: MarketHistoryArgs): Promise<MarketHistory> {
  const now = ctx.services.clock.now();
  const q = parseHistoryQuery({ asset: m.id, ...args }, now);
  const result = await loadersOf(ctx, info).history.candles({ marketId: m.id, ...q, now });
  if ('refused' in result) throw invalidParameter('invalid_public_market_history_query', 'resolution', result.refused);
  return { asset: m.asset, marketId: m.id, resolution: q.resolution, from: q.from ?? null, to: q.to, points: result.points, nextCursor: null };
}

export async function marketProtocol(ctx: GatewayContext, info: GraphQLResolveInfo, m: MarketView): Promise<PublicProtocol | null> {
  return (await loadersOf(ctx, info).protocols()).get(m.protocol) ?? null;
}

/** The markets a protocol lists, with their latest snapshots (one cache read for all of them). */
export async function protocolMarkets(ctx: GatewayContext, p: PublicProtocol): Promise<MarketView[]> {
  const { reader } = ctx.services;
  return (await reader.views(reader.directory.ofProtocol(p.id))).views;
}
