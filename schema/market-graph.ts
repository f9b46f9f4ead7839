import { marketCandles, marketOrderBook, marketProtocol, protocolMarkets } from '../resolvers/graph/market-fields.js';
import { GRAPH_ONLY } from '../src/http/rest/rest-schema.js';
import { builder } from './builder.js';
import { MarketHistoryRef } from './history.js';
import { MarketRef } from './market.js';
import { OrderBookRef } from './order-book.js';
import { PublicProtocolRef } from './protocol.js';

// The graph beside the REST-mapped root fields: links between markets, books, candles and
// protocols. Graph-only (no REST route selects them); reads go through request-scoped loaders.
builder.objectFields(MarketRef, (t) => ({
  orderBook: t.field({
    type: OrderBookRef,
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'The cached order book, best first; null when the market has none or its source is down.',
    args: { depth: t.arg.int({ description: 'Levels per side, 1 to 100 (default: all kept, at most 100).' }) },
    resolve: (m, args, ctx, info) => marketOrderBook(ctx, info, m, args.depth),
  }),
  history: t.field({
    type: MarketHistoryRef,
    extensions: GRAPH_ONLY,
    description: 'Stored candles, as GET /api/v1/public/markets/{asset}/history (same validation and codes).',
    args: {
      resolution: t.arg.string({ description: 'One of 1m, 5m, 15m, 30m, 1h, 4h, 1d (default 1d).' }),
      from: t.arg.string({ description: 'Inclusive lower bound, RFC 3339.' }),
      to: t.arg.string({ description: 'Inclusive upper bound, RFC 3339 (default: now).' }),
      limit: t.arg.int({ description: 'Maximum points, 1 to 366 (default 366); the most recent win.' }),
    },
    resolve: (m, args, ctx, info) => marketCandles(ctx, info, m, args),
  }),
  protocolDetails: t.field({
    type: PublicProtocolRef,
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'The public protocol listing this market (`protocol` is its id).',
    resolve: (m, _args, ctx, info) => marketProtocol(ctx, info, m),
  }),
}));

builder.objectFields(PublicProtocolRef, (t) => ({
  marketList: t.field({
    type: [MarketRef],
    extensions: GRAPH_ONLY,
    description: 'The markets this protocol lists that have a snapshot (`markets` are their ids).',
    resolve: (p, _args, ctx) => protocolMarkets(ctx, p),
  }),
}));
