import type { VenueAccountView } from '../src/execution/venue-accounts.js';
import { builder } from './builder.js';

const VenueAmountRef = builder.objectRef<VenueAccountView['available'][number]>('VenueAmount').implement({
  fields: (t) => ({
    token: t.exposeString('token'),
    amount: t.field({ type: 'Decimal', resolve: (a) => a.amount }),
  }),
});

const VenuePositionRef = builder.objectRef<VenueAccountView['positions'][number]>('VenuePosition').implement({
  description: 'A position as the venue reports it (signed size: negative is short).',
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    size: t.field({ type: 'Decimal', resolve: (p) => p.size }),
    entryPrice: t.field({ type: 'Decimal', nullable: true, resolve: (p) => p.entryPrice }),
    unrealizedPnl: t.field({ type: 'Decimal', nullable: true, resolve: (p) => p.unrealizedPnl }),
  }),
});

/** A real venue's account: its own truth, shown beside the paper ledger and never mixed into it. */
export const VenueAccountRef = builder.objectRef<VenueAccountView>('VenueAccount').implement({
  description: "A real venue's account bound to this gateway account (Hyperliquid clearinghouse, Alpaca account), as the venue reports it.",
  fields: (t) => ({
    protocol: t.exposeString('protocol'),
    account: t.exposeString('account', { nullable: true, description: 'The venue account (an address or account number).' }),
    available: t.field({ type: [VenueAmountRef], description: 'Free collateral or buying power.', resolve: (a) => a.available }),
    equity: t.field({ type: [VenueAmountRef], description: 'Account value.', resolve: (a) => a.equity }),
    positions: t.field({ type: [VenuePositionRef], resolve: (a) => a.positions }),
    asOf: t.field({ type: 'DateTime', nullable: true, description: "The venue's time of this state.", resolve: (a) => a.asOf }),
    unavailable: t.exposeString('unavailable', { nullable: true, description: 'Why the venue account could not be read now.' }),
  }),
});
