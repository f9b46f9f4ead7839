import {
  perpFundingEnvelope,
  perpFundingHistoryEnvelope,
  perpPriceEnvelope,
  type FundingPoint,
  type PerpFunding,
  type PerpFundingHistory,
  type PerpPrice,
} from '../resolvers/data/perps.js';
import { builder } from './builder.js';
import { envelopeType } from './envelope.js';

const PerpPriceRef = builder.objectRef<PerpPrice>('PerpPrice').implement({
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    asset: t.exposeString('asset'),
    quote: t.exposeString('quote'),
    price: t.field({ type: 'Decimal', resolve: (p) => p.price }),
    change24hPct: t.field({ type: 'Decimal', resolve: (p) => p.change24hPct }),
    high24h: t.field({ type: 'Decimal', nullable: true, description: '24 h high; null while the venue has not reported it.', resolve: (p) => p.high24h }),
    low24h: t.field({ type: 'Decimal', nullable: true, description: '24 h low; null while the venue has not reported it.', resolve: (p) => p.low24h }),
  }),
});

const FundingPointRef = builder.objectRef<FundingPoint>('FundingPoint').implement({
  fields: (t) => ({
    time: t.field({ type: 'DateTime', description: 'Settlement time.', resolve: (f) => f.time }),
    rate: t.field({ type: 'Decimal', description: 'Rate for the interval ending at `time`.', resolve: (f) => f.rate }),
    annualizedPct: t.field({ type: 'Decimal', resolve: (f) => f.annualizedPct }),
  }),
});

export const PerpFundingRef = builder.objectRef<PerpFunding>('PerpFunding').implement({
  description: 'Funding is monitoring data; it places no order and is not an execution signal when stale.',
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    asset: t.exposeString('asset'),
    fundingRate: t.field({ type: 'Decimal', description: 'Current hourly rate.', resolve: (f) => f.fundingRate }),
    intervalHours: t.exposeInt('intervalHours'),
    annualizedPct: t.field({ type: 'Decimal', resolve: (f) => f.annualizedPct }),
    nextFundingAt: t.field({ type: 'DateTime', nullable: true, resolve: (f) => f.nextFundingAt }),
    openInterest: t.field({ type: 'Decimal', nullable: true, resolve: (f) => f.openInterest }),
    lastSettlement: t.field({ type: FundingPointRef, nullable: true, resolve: (f) => f.lastSettlement }),
  }),
});

export const PerpFundingHistoryRef = builder.objectRef<PerpFundingHistory>('PerpFundingHistory').implement({
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    asset: t.exposeString('asset'),
    intervalHours: t.exposeInt('intervalHours'),
    entries: t.field({ type: [FundingPointRef], description: 'Most recent last.', resolve: (h) => h.entries }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the older page; null when none is kept.' }),
  }),
});

const PerpPriceEnvelope = envelopeType('PerpPriceEnvelope', PerpPriceRef, { description: 'Envelope: current price of a perpetual.' });
const PerpFundingEnvelope = envelopeType('PerpFundingEnvelope', PerpFundingRef, { description: 'Envelope: current funding of a perpetual.' });
const PerpFundingHistoryEnvelope = envelopeType('PerpFundingHistoryEnvelope', PerpFundingHistoryRef, { description: 'Envelope: settled funding history.' });

builder.queryFields((t) => ({
  perpPrice: t.field({
    type: PerpPriceEnvelope,
    description: 'GET /api/v1/data/perps/price/{asset} (scope data:read)',
    authScopes: { 'data:read': true },
    args: { asset: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => perpPriceEnvelope(ctx, args.asset),
  }),
  perpFunding: t.field({
    type: PerpFundingEnvelope,
    description: 'GET /api/v1/data/perps/funding/{asset} (scope data:read)',
    authScopes: { 'data:read': true },
    args: { asset: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => perpFundingEnvelope(ctx, args.asset),
  }),
  perpFundingHistory: t.field({
    type: PerpFundingHistoryEnvelope,
    description: 'GET /api/v1/data/perps/funding/history/{asset} (scope data:read)',
    authScopes: { 'data:read': true },
    args: {
      asset: t.arg.string({ required: true }),
      limit: t.arg.int({ description: 'Entries, 1 to 720 (default 168).' }),
      cursor: t.arg.string({ description: 'The nextCursor of the previous page: the entries before it.' }),
    },
    resolve: (_root, args, ctx) => perpFundingHistoryEnvelope(ctx, args.asset, args.limit, args.cursor),
  }),
}));
