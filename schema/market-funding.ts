import { perpFundingEnvelope, perpFundingHistoryEnvelope } from '../resolvers/data/perps.js';
import { GRAPH_ONLY } from '../src/http/rest/rest-schema.js';
import { builder } from './builder.js';
import { MarketRef } from './market.js';
import { PerpFundingHistoryRef, PerpFundingRef } from './perps.js';

// A perpetual's funding from its market row, guarded by the scope of its REST routes (data:read).
builder.objectFields(MarketRef, (t) => ({
  funding: t.field({
    type: PerpFundingRef,
    nullable: true,
    extensions: GRAPH_ONLY,
    authScopes: { 'data:read': true },
    description: 'Current funding, as GET /api/v1/data/perps/funding/{asset} (scope data:read); null for other kinds.',
    resolve: async (m, _args, ctx) => (m.kind === 'perpetual' ? (await perpFundingEnvelope(ctx, m.id)).data : null),
  }),
  fundingHistory: t.field({
    type: PerpFundingHistoryRef,
    nullable: true,
    extensions: GRAPH_ONLY,
    authScopes: { 'data:read': true },
    description: 'Settled funding, as GET /api/v1/data/perps/funding/history/{asset} (scope data:read); null for other kinds.',
    args: { limit: t.arg.int({ description: 'Entries, 1 to 720 (default 168).' }) },
    resolve: async (m, args, ctx) => (m.kind === 'perpetual' ? (await perpFundingHistoryEnvelope(ctx, m.id, args.limit, null)).data : null),
  }),
}));
