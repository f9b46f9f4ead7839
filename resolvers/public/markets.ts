import { type Freshness, type FreshnessBasis } from '../../src/domain/freshness.js';
import { viewFreshnessBasis } from '../../src/market-data/market-reader.js';
import type { MarketView } from '../../src/market-data/market-view.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { timedEnvelope, type PublicEnvelope } from './envelope.js';
import { snapshotEtag, versionEtag, versionEtags } from './snapshot-etag.js';

const NO_SNAPSHOT: FreshnessBasis = { missing: 'no_snapshot', sourceStatus: 'unknown' };

/** Every listed market with a snapshot; the list is as fresh as its oldest market. */
export async function marketsEnvelope(ctx: GatewayContext, options: { mirror: boolean }): Promise<PublicEnvelope<MarketView[]>> {
  const { reader, clock } = ctx.services;
  const now = clock.now();
  // Read before the data: an answer is reused only while no write came after this version.
  const version = ctx.services.answerVersion();
  const { views, missing } = await reader.views(reader.directory.markets, now);
  const parts = views.map((v) => viewFreshnessBasis(v.asOfMs, v.freshness.sourceStatus));
  const list: FreshnessBasis = { parts: missing.length > 0 ? [...parts, NO_SNAPSHOT] : parts, fallback: NO_SNAPSHOT };
  const etag = options.mirror ? mirrorEtag(views, versionEtags(ctx)) : undefined;
  return timedEnvelope(views, { version, now, freshness: [list, ...parts], ...(etag ? { etag } : {}) });
}

/**
 * The mirror's weak validator: from the snapshot version and how many of its values are stale
 * (which only grows while the version stands), so it changes exactly when the snapshot or a
 * stale flag does; without a version, or on Redis replicas (versionEtags), a digest of every
 * market's snapshot, status and stale flag at the instant (`freshness` is the list's, then each market's).
 */
function mirrorEtag(views: readonly MarketView[], byVersion: boolean) {
  return (version: string | undefined, freshness: readonly Freshness[]) =>
    version === undefined || !byVersion
      ? snapshotEtag(views.flatMap((v, i) => [v.id, v.asOfMs, v.freshness.sourceStatus, freshness[i + 1]!.stale]))
      : versionEtag(version, freshness.filter((f) => f.stale).length);
}

/** One market by id or symbol; unknown is a stale not-found envelope with status 404 (spec). */
export async function marketEnvelope(ctx: GatewayContext, asset: string): Promise<PublicEnvelope<MarketView | null>> {
  const { reader, clock } = ctx.services;
  const now = clock.now();
  const version = ctx.services.answerVersion();
  const market = reader.directory.resolve(asset);
  if (!market) return timedEnvelope(null, { version, now, freshness: [{ missing: 'not_found', sourceStatus: 'unknown' }] }, 404);
  const view = await reader.view(market, now);
  if (!view) {
    const sourceStatus = await reader.sourceStatus(market.sourceId);
    return timedEnvelope(null, { version, now, freshness: [{ missing: 'no_snapshot', sourceStatus }] });
  }
  const basis = viewFreshnessBasis(view.asOfMs, view.freshness.sourceStatus);
  // The envelope's freshness and the market's are the same value, rendered twice.
  return timedEnvelope(view, { version, now, freshness: [basis, basis] });
}
