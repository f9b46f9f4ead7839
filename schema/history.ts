import type { HistoryPoint } from '../src/market-data/candle-history.js';
import { marketHistoryEnvelope, type MarketHistory } from '../resolvers/public/market-history.js';
import { builder } from './builder.js';
import { envelopeType } from './envelope.js';

const CandleRef = builder.objectRef<HistoryPoint>('Candle').implement({
  description: 'One stored candle observation (OHLCV).',
  fields: (t) => ({
    time: t.field({ type: 'DateTime', description: 'Bucket start.', resolve: (c) => c.start }),
    open: t.field({ type: 'Decimal', resolve: (c) => c.open }),
    high: t.field({ type: 'Decimal', resolve: (c) => c.high }),
    low: t.field({ type: 'Decimal', resolve: (c) => c.low }),
    close: t.field({ type: 'Decimal', resolve: (c) => c.close }),
    volume: t.field({ type: 'Decimal', resolve: (c) => c.volume }),
    closed: t.exposeBoolean('closed', { description: 'False while the bucket is still open.' }),
  }),
});

export const MarketHistoryRef = builder.objectRef<MarketHistory>('MarketHistory').implement({
  fields: (t) => ({
    asset: t.exposeString('asset'),
    marketId: t.exposeString('marketId', { nullable: true }),
    resolution: t.exposeString('resolution'),
    from: t.field({ type: 'DateTime', nullable: true, resolve: (h) => h.from }),
    to: t.field({ type: 'DateTime', resolve: (h) => h.to }),
    points: t.field({ type: [CandleRef], resolve: (h) => h.points }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the older page; null when none is left.' }),
  }),
});

const MarketHistoryEnvelope = envelopeType('MarketHistoryEnvelope', MarketHistoryRef, { description: 'Public envelope with candle observations.' });

builder.queryFields((t) => ({
  marketHistory: t.field({
    type: MarketHistoryEnvelope,
    description: 'GET /api/v1/public/markets/{asset}/history',
    args: {
      asset: t.arg.string({ required: true }),
      resolution: t.arg.string({ description: 'One of 1m, 5m, 15m, 30m, 1h, 4h, 1d (default 1d).' }),
      from: t.arg.string({ description: 'Inclusive lower bound, RFC 3339.' }),
      to: t.arg.string({ description: 'Inclusive upper bound, RFC 3339 (default: now).' }),
      limit: t.arg.int({ description: 'Maximum points, 1 to 366 (default 366); the most recent win.' }),
      cursor: t.arg.string({ description: 'The nextCursor of the previous page: the points before it.' }),
    },
    resolve: (_root, args, ctx) => marketHistoryEnvelope(ctx, args),
  }),
}));
