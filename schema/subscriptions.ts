import type { MarketFreshness } from '../src/market-data/market-view.js';
import { followMarkets, freshnessUpdates, marketsFollowed } from '../resolvers/public/live-updates.js';
import { PUBLIC_SCHEMA_VERSION } from '../resolvers/public/envelope.js';
import { builder } from './builder.js';
import { FreshnessRef } from './freshness.js';
import { MarketRef } from './market.js';
import { OrderBookEnvelope } from './order-book.js';

const MarketFreshnessRef = builder.objectRef<MarketFreshness>('MarketFreshness').implement({
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    asset: t.exposeString('asset'),
    freshness: t.field({ type: FreshnessRef, resolve: (f) => f.freshness }),
    sequence: t.int({
      nullable: true,
      description: "This market's freshness event number, one more per event (the newest known on the state sent on subscribe; null if none yet).",
      resolve: (f) => f.sequence ?? null,
    }),
    producedAt: t.field({ type: 'DateTime', nullable: true, description: 'When the event was produced.', resolve: (f) => f.producedAt ?? null }),
    missedEvents: t.boolean({
      nullable: true,
      description: 'On the state sent on subscribe with lastSequence: whether events came after it (then refetch); null otherwise.',
      resolve: (f) => f.missedEvents ?? null,
    }),
    heartbeat: t.boolean({
      description: 'True when nothing changed: the state is re-sent so a client knows the feed is alive.',
      resolve: (f) => f.heartbeat ?? false,
    }),
  }),
});

builder.subscriptionType({
  fields: (t) => ({
    freshnessChanged: t.field({
      type: MarketFreshnessRef,
      description:
        'Current freshness of the matching markets on subscribe, then every change of stale, staleReason or sourceStatus, plus a heartbeat (FRESHNESS_HEARTBEAT_MS).',
      args: {
        asset: t.arg.string({ description: 'A market id or symbol; all markets when omitted.' }),
        lastSequence: t.arg.int({ description: 'On reconnecting: the last sequence seen; the first event says whether any were missed.' }),
      },
      subscribe: (_root, args, ctx) => freshnessUpdates(ctx, args.asset, args.lastSequence),
      resolve: (payload) => payload,
    }),
    marketUpdated: t.field({
      type: MarketRef,
      description: 'Every new snapshot of the matching markets.',
      args: { asset: t.arg.string({ description: 'A market id or symbol; all markets when omitted.' }) },
      subscribe: (_root, args, ctx) => followMarkets(ctx, 'market:updated', marketsFollowed(ctx, args.asset), (m) => m.id),
      resolve: (payload) => payload,
    }),
    orderBookUpdated: t.field({
      type: OrderBookEnvelope,
      description: 'Every new order-book snapshot of one market.',
      args: { asset: t.arg.string({ required: true }) },
      subscribe: (_root, args, ctx) => followMarkets(ctx, 'orderbook:updated', marketsFollowed(ctx, args.asset), (b) => b.marketId),
      resolve: ({ freshness, ...data }) => ({ schemaVersion: PUBLIC_SCHEMA_VERSION, generatedAt: Date.parse(freshness.asOf), freshness, data }),
    }),
  }),
});
