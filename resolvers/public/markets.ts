import { combineFreshness, missingFreshness } from '../../src/domain/freshness.js';
import type { MarketView } from '../../src/market-data/market-view.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from './envelope.js';
import { snapshotEtag } from './snapshot-etag.js';

/** Every listed market with a snapshot; the list is as fresh as its oldest market. */
export async function marketsEnvelope(ctx: GatewayContext, options: { mirror: boolean }): Promise<PublicEnvelope<MarketView[]>> {
  const { reader, clock } = ctx.services;
  const now = clock.now();
  const { views, missing } = await reader.views(reader.directory.markets, now);
  const parts = views.map((v) => v.freshness);
  if (missing.length > 0) parts.push(missingFreshness('no_snapshot', 'unknown', now));
  const freshness = combineFreshness(parts, missingFreshness('no_snapshot', 'unknown', now));
  if (options.mirror && ctx.http) {
    ctx.http.etag = snapshotEtag(views.flatMap((v) => [v.id, v.asOfMs, v.freshness.sourceStatus, v.freshness.stale]));
  }
  return publicEnvelope(ctx, views, freshness, now);
}

/** One market by id or symbol; unknown is a stale not-found envelope with status 404 (spec). */
export async function marketEnvelope(ctx: GatewayContext, asset: string): Promise<PublicEnvelope<MarketView | null>> {
  const { reader, clock } = ctx.services;
  const now = clock.now();
  const market = reader.directory.resolve(asset);
  if (!market) return publicEnvelope(ctx, null, missingFreshness('not_found', 'unknown', now), now, 404);
  const view = await reader.view(market, now);
  if (!view) return publicEnvelope(ctx, null, missingFreshness('no_snapshot', await reader.sourceStatus(market.sourceId), now), now);
  return publicEnvelope(ctx, view, view.freshness, now);
}
