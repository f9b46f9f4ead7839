import type { LendingPosition, PerpPosition } from '../resolvers/data/account-valuation.js';
import { positionsEnvelope, type Positions } from '../resolvers/data/positions.js';
import { builder } from './builder.js';
import { VenueAccountRef } from './venue-account.js';
import { PositionSideEnum } from './closed-sets.js';
import { envelopeType } from './envelope.js';

const PerpPositionRef = builder.objectRef<PerpPosition>('PerpPosition').implement({
  description: 'An open perpetual position, marked to the snapshot cache.',
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    side: t.field({ type: PositionSideEnum, description: 'long or short.', resolve: (p) => p.side }),
    size: t.field({ type: 'Decimal', resolve: (p) => p.size }),
    entryPrice: t.field({ type: 'Decimal', nullable: true, description: 'Average entry (signed cost / size).', resolve: (p) => p.entryPrice }),
    markPrice: t.field({ type: 'Decimal', nullable: true, resolve: (p) => p.markPrice }),
    unrealizedPnlUsd: t.field({ type: 'Decimal', nullable: true, resolve: (p) => p.unrealizedPnlUsd }),
    marginUsd: t.field({ type: 'Decimal', resolve: (p) => p.marginUsd }),
    leverage: t.field({ type: 'Decimal', nullable: true, description: 'Position value at mark over margin.', resolve: (p) => p.leverage }),
    liquidationPrice: t.field({
      type: 'Decimal',
      nullable: true,
      description: 'Where equity meets the 0.5 % maintenance margin.',
      resolve: (p) => p.liquidationPrice,
    }),
    stale: t.exposeBoolean('stale', { description: 'The mark is past its max age: not an execution signal.' }),
  }),
});

const LendingPositionRef = builder.objectRef<LendingPosition>('LendingPosition').implement({
  fields: (t) => ({
    asset: t.exposeString('asset'),
    supplied: t.field({ type: 'Decimal', resolve: (p) => p.supplied }),
    borrowed: t.field({ type: 'Decimal', resolve: (p) => p.borrowed }),
    priceUsd: t.field({ type: 'Decimal', nullable: true, resolve: (p) => p.priceUsd }),
    accruedSupplyInterest: t.field({
      type: 'Decimal',
      description: 'In the asset, at the current supply APY since each fill.',
      resolve: (p) => p.accruedSupplyInterest,
    }),
    accruedBorrowInterest: t.field({
      type: 'Decimal',
      description: 'In the asset, at the current borrow APY since each fill.',
      resolve: (p) => p.accruedBorrowInterest,
    }),
    stale: t.exposeBoolean('stale'),
  }),
});

const PositionsRef = builder.objectRef<Positions>('Positions').implement({
  fields: (t) => ({
    perps: t.field({ type: [PerpPositionRef], resolve: (p) => p.perps }),
    lending: t.field({ type: [LendingPositionRef], resolve: (p) => p.lending }),
    loanToValue: t.field({ type: 'Decimal', nullable: true, description: 'Borrowed over supplied value (limit 0.75).', resolve: (p) => p.loanToValue }),
    venues: t.field({
      type: [VenueAccountRef],
      description:
        "Positions real venues hold for this account (their truth), beside the paper ones above; empty when no real venue takes this account's orders.",
      resolve: (p) => p.venues,
    }),
  }),
});

export const PositionsEnvelope = envelopeType('PositionsEnvelope', PositionsRef, { description: "Envelope: the key's open positions." });

builder.queryFields((t) => ({
  positions: t.field({
    type: PositionsEnvelope,
    description: 'GET /api/v1/data/positions (scope data:read)',
    authScopes: { 'data:read': true },
    resolve: (_root, _args, ctx) => positionsEnvelope(ctx),
  }),
}));
