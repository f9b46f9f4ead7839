import type { EventSequence } from '../src/events/gateway-events.js';
import { GRAPH_ONLY } from '../src/http/rest/rest-schema.js';
import type { MarketFreshness } from '../src/market-data/market-view.js';
import { freshnessUpdates, marketUpdates, orderBookUpdates } from '../resolvers/public/live-updates.js';
import { PUBLIC_SCHEMA_VERSION, type PublicEnvelope } from '../resolvers/public/envelope.js';
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

type OrderBookEvent = PublicEnvelope<unknown> & EventSequence;

// Graph-only event fields of the types marketUpdated and orderBookUpdated deliver (null in queries).
builder.objectFields(MarketRef, (t) => ({
  sequence: t.int({
    nullable: true,
    extensions: GRAPH_ONLY,
    description:
      "On marketUpdated: this market's snapshot event number, one more per event (the newest known on the state sent on subscribe); null in queries.",
    resolve: (m) => (m as EventSequence).sequence ?? null,
  }),
  producedAt: t.field({
    type: 'DateTime',
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'On marketUpdated events: when the event was produced.',
    resolve: (m) => (m as EventSequence).producedAt ?? null,
  }),
  missedEvents: t.boolean({
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'On the state marketUpdated sends on subscribe with lastSequence: whether events came after it (then refetch); null otherwise.',
    resolve: (m) => (m as EventSequence).missedEvents ?? null,
  }),
}));

builder.objectFields(OrderBookEnvelope, (t) => ({
  sequence: t.int({
    nullable: true,
    extensions: GRAPH_ONLY,
    description:
      "On orderBookUpdated: this market's order-book event number, one more per event (the newest known on the state sent on subscribe); null in queries.",
    resolve: (e) => (e as OrderBookEvent).sequence ?? null,
  }),
  producedAt: t.field({
    type: 'DateTime',
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'On orderBookUpdated events: when the event was produced.',
    resolve: (e) => (e as OrderBookEvent).producedAt ?? null,
  }),
  missedEvents: t.boolean({
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'On the book orderBookUpdated sends on subscribe with lastSequence: whether events came after it (then refetch); null otherwise.',
    resolve: (e) => (e as OrderBookEvent).missedEvents ?? null,
  }),
}));

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
      description:
        'Every new snapshot of the matching markets, with its per-market sequence number and producedAt. With lastSequence, the current snapshots first, each saying whether events were missed.',
      args: {
        asset: t.arg.string({ description: 'A market id or symbol; all markets when omitted.' }),
        lastSequence: t.arg.int({ description: 'On reconnecting: the last sequence seen; the current state comes first and says whether any were missed.' }),
      },
      subscribe: (_root, args, ctx) => marketUpdates(ctx, args.asset, args.lastSequence),
      resolve: (payload) => payload,
    }),
    orderBookUpdated: t.field({
      type: OrderBookEnvelope,
      description:
        'Every new order-book snapshot of one market, with its sequence number and producedAt. With lastSequence, the current book first, saying whether events were missed.',
      args: {
        asset: t.arg.string({ required: true }),
        lastSequence: t.arg.int({ description: 'On reconnecting: the last sequence seen; the current book comes first and says whether any were missed.' }),
      },
      subscribe: (_root, args, ctx) => orderBookUpdates(ctx, args.asset, args.lastSequence),
      resolve: ({ freshness, sequence, producedAt, missedEvents, ...data }): OrderBookEvent => ({
        schemaVersion: PUBLIC_SCHEMA_VERSION,
        generatedAt: Date.parse(freshness.asOf),
        freshness,
        data,
        sequence,
        producedAt,
        missedEvents,
      }),
    }),
  }),
});
