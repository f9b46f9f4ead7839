import { lendingYieldEnvelope, type LendingYield } from '../resolvers/data/lending-yield.js';
import { portfolioEnvelope, type Portfolio, type PortfolioBalance } from '../resolvers/data/portfolio.js';
import { protocolIntelligenceEnvelope, type ProtocolIntelligence } from '../resolvers/data/protocol-intelligence.js';
import { orderBookEnvelope } from '../resolvers/public/order-book.js';
import { builder } from './builder.js';
import { VenueAccountRef } from './venue-account.js';
import { ProtocolKindEnum } from './closed-sets.js';
import { SourceStatusEnum } from './freshness.js';
import { envelopeType } from './envelope.js';
import { OrderBookEnvelope } from './order-book.js';
import { CertificationStateEnum } from './protocol.js';

const LendingYieldRef = builder.objectRef<LendingYield>('LendingYield').implement({
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    asset: t.exposeString('asset'),
    supplyApy: t.field({ type: 'Decimal', description: 'Percent.', resolve: (y) => y.supplyApy }),
    borrowApy: t.field({ type: 'Decimal', description: 'Percent.', resolve: (y) => y.borrowApy }),
    utilization: t.field({ type: 'Decimal', description: '0 to 1.', resolve: (y) => y.utilization }),
  }),
});

const BalanceRef = builder.objectRef<PortfolioBalance>('PortfolioBalance').implement({
  fields: (t) => ({
    token: t.exposeString('token'),
    amount: t.field({ type: 'Decimal', resolve: (b) => b.amount }),
    priceUsd: t.field({ type: 'Decimal', nullable: true, resolve: (b) => b.priceUsd }),
    valueUsd: t.field({ type: 'Decimal', nullable: true, resolve: (b) => b.valueUsd }),
  }),
});

const PortfolioRef = builder.objectRef<Portfolio>('Portfolio').implement({
  fields: (t) => ({
    accountId: t.exposeString('accountId'),
    wallet: t.exposeString('wallet'),
    balances: t.field({ type: [BalanceRef], resolve: (p) => p.balances }),
    totalValueUsd: t.field({
      type: 'Decimal',
      description: 'The paper ledger valued at snapshot prices (venue accounts are apart).',
      resolve: (p) => p.totalValueUsd,
    }),
    venues: t.field({
      type: [VenueAccountRef],
      description: "Real venues' accounts bound to this account (balances, equity, positions), as the venues report them; never mixed into the paper balances.",
      resolve: (p) => p.venues,
    }),
  }),
});

const ActionCertificationRef = builder.objectRef<ProtocolIntelligence['actions'][number]>('ActionCertification').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    certification: t.field({ type: CertificationStateEnum, resolve: (a) => a.certification }),
  }),
});

const ProtocolIntelligenceRef = builder.objectRef<ProtocolIntelligence>('ProtocolIntelligence').implement({
  fields: (t) => ({
    protocolId: t.exposeString('protocolId'),
    name: t.exposeString('name'),
    kind: t.field({ type: ProtocolKindEnum, resolve: (p) => p.kind }),
    sourceStatus: t.field({ type: SourceStatusEnum, resolve: (p) => p.sourceStatus }),
    consecutiveFailures: t.exposeInt('consecutiveFailures'),
    lastSuccessAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.lastSuccessAt }),
    marketCount: t.exposeInt('marketCount'),
    volume24hUsd: t.field({ type: 'Decimal', resolve: (p) => p.volume24hUsd }),
    openInterestUsd: t.field({ type: 'Decimal', nullable: true, resolve: (p) => p.openInterestUsd }),
    averageFundingRate: t.field({ type: 'Decimal', nullable: true, resolve: (p) => p.averageFundingRate }),
    averageSupplyApy: t.field({ type: 'Decimal', nullable: true, resolve: (p) => p.averageSupplyApy }),
    actions: t.field({ type: [ActionCertificationRef], resolve: (p) => p.actions }),
  }),
});

const LendingYieldEnvelope = envelopeType('LendingYieldEnvelope', LendingYieldRef, { description: 'Envelope: lending yield.' });
export const PortfolioEnvelope = envelopeType('PortfolioEnvelope', PortfolioRef, { description: "Envelope: the key's account." });
const ProtocolIntelligenceEnvelope = envelopeType('ProtocolIntelligenceEnvelope', ProtocolIntelligenceRef, { description: 'Envelope: protocol intelligence.' });

builder.queryFields((t) => ({
  dataOrderBook: t.field({
    type: OrderBookEnvelope,
    description: 'GET /api/v1/data/orderbook/{asset} (scope data:read)',
    authScopes: { 'data:read': true },
    args: { asset: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => orderBookEnvelope(ctx, args.asset, { notAvailable: 'orderbook_not_available', unavailable: 'orderbook_unavailable' }),
  }),
  lendingYield: t.field({
    type: LendingYieldEnvelope,
    description: 'GET /api/v1/data/lending/yield/{asset} (scope data:read)',
    authScopes: { 'data:read': true },
    args: { asset: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => lendingYieldEnvelope(ctx, args.asset),
  }),
  portfolio: t.field({
    type: PortfolioEnvelope,
    description: 'GET /api/v1/data/portfolio (scope data:read)',
    authScopes: { 'data:read': true },
    resolve: (_root, _args, ctx) => portfolioEnvelope(ctx),
  }),
  protocolIntelligence: t.field({
    type: ProtocolIntelligenceEnvelope,
    description: 'GET /api/v1/data/protocols/{protocol}/intelligence (scope data:read)',
    authScopes: { 'data:read': true },
    args: { protocol: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => protocolIntelligenceEnvelope(ctx, args.protocol),
  }),
}));
