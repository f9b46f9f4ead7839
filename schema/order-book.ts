import type { OrderBookLevel } from '../src/domain/market.js';
import type { OrderBookView } from '../src/market-data/order-book-view.js';
import { orderBookEnvelope } from '../resolvers/public/order-book.js';
import { builder } from './builder.js';
import { envelopeType } from './envelope.js';

const LevelRef = builder.objectRef<OrderBookLevel>('OrderBookLevel').implement({
  fields: (t) => ({
    price: t.field({ type: 'Decimal', resolve: (l) => l.price }),
    size: t.field({ type: 'Decimal', resolve: (l) => l.size }),
    cumulativeSize: t.field({ type: 'Decimal', description: 'Size of this level and all better ones.', resolve: (l) => l.cumulativeSize }),
  }),
});

export const OrderBookRef = builder.objectRef<Omit<OrderBookView, 'freshness'>>('OrderBook').implement({
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    asset: t.exposeString('asset'),
    bids: t.field({ type: [LevelRef], description: 'Best first, at most 100.', resolve: (b) => b.bids }),
    asks: t.field({ type: [LevelRef], description: 'Best first, at most 100.', resolve: (b) => b.asks }),
    depth: t.exposeInt('depth'),
  }),
});

export const OrderBookEnvelope = envelopeType('OrderBookEnvelope', OrderBookRef, { description: 'Order-book envelope (max age 5 000 ms).' });

builder.queryFields((t) => ({
  orderBook: t.field({
    type: OrderBookEnvelope,
    description: 'GET /api/v1/public/markets/{asset}/orderbook',
    args: { asset: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => orderBookEnvelope(ctx, args.asset),
  }),
}));
