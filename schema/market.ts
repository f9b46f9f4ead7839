import type { MarketView } from '../src/market-data/market-view.js';
import { marketEnvelope, marketsEnvelope } from '../resolvers/public/markets.js';
import { builder } from './builder.js';
import { envelopeType } from './envelope.js';
import { FreshnessRef } from './freshness.js';

export const MarketKindEnum = builder.enumType('MarketKind', { values: ['perpetual', 'equity', 'swap_pool', 'lending'] as const });

export const MarketRef = builder.objectRef<MarketView>('Market').implement({
  description: 'A public market record: the latest snapshot of one market.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Market id, such as BTC-PERP.' }),
    asset: t.exposeString('asset', { description: 'Base asset symbol.' }),
    quote: t.exposeString('quote'),
    kind: t.field({ type: MarketKindEnum, resolve: (m) => m.kind }),
    protocol: t.exposeString('protocol'),
    hasOrderBook: t.exposeBoolean('hasOrderBook'),
    price: t.field({ type: 'Decimal', resolve: (m) => m.price }),
    change24hPct: t.field({ type: 'Decimal', resolve: (m) => m.change24hPct }),
    high24h: t.field({ type: 'Decimal', nullable: true, description: '24 h high; null while the venue has not reported it.', resolve: (m) => m.high24h }),
    low24h: t.field({ type: 'Decimal', nullable: true, description: '24 h low; null while the venue has not reported it.', resolve: (m) => m.low24h }),
    volume24h: t.field({ type: 'Decimal', description: 'Traded notional over 24 h, in quote units.', resolve: (m) => m.volume24h }),
    fundingRate: t.field({ type: 'Decimal', nullable: true, description: 'Hourly funding rate (perpetuals).', resolve: (m) => m.fundingRate }),
    nextFundingAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.nextFundingAt }),
    openInterest: t.field({
      type: 'Decimal',
      nullable: true,
      description: 'Open interest notional in quote units (perpetuals).',
      resolve: (m) => m.openInterest,
    }),
    supplyApy: t.field({ type: 'Decimal', nullable: true, description: 'Supply APY in percent (lending).', resolve: (m) => m.supplyApy }),
    borrowApy: t.field({ type: 'Decimal', nullable: true, description: 'Borrow APY in percent (lending).', resolve: (m) => m.borrowApy }),
    utilization: t.field({ type: 'Decimal', nullable: true, description: 'Pool utilisation, 0 to 1 (lending).', resolve: (m) => m.utilization }),
    liquidity: t.field({
      type: 'Decimal',
      nullable: true,
      description:
        'In-range liquidity of a swap pool, as the quote-token reserve of the constant-product pool it equals at the current price (token swap); null where the venue does not report it.',
      resolve: (m) => m.liquidity,
    }),
    sessionOpen: t.exposeBoolean('sessionOpen', { nullable: true, description: 'Whether the trading session is open (equities).' }),
    freshness: t.field({ type: FreshnessRef, resolve: (m) => m.freshness }),
  }),
});

const MarketsEnvelope = envelopeType('MarketsEnvelope', [MarketRef], { description: 'Public envelope: list of public markets.' });
const MarketEnvelope = envelopeType('MarketEnvelope', MarketRef, {
  nullableData: true,
  description: 'Public envelope: one market summary; data is null for an unknown market.',
});

builder.queryFields((t) => ({
  markets: t.field({
    type: MarketsEnvelope,
    description: 'GET /api/v1/public/markets',
    resolve: (_root, _args, ctx) => marketsEnvelope(ctx, { mirror: false }),
  }),
  marketsMirror: t.field({
    type: MarketsEnvelope,
    description: 'GET /api/v1/public/data/markets.json: the markets list as a cacheable mirror.',
    resolve: (_root, _args, ctx) => marketsEnvelope(ctx, { mirror: true }),
  }),
  market: t.field({
    type: MarketEnvelope,
    description: 'GET /api/v1/public/markets/{asset}',
    args: { asset: t.arg.string({ required: true, description: 'A market id or an asset symbol.' }) },
    resolve: (_root, args, ctx) => marketEnvelope(ctx, args.asset),
  }),
}));
