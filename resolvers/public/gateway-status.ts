import { sourceFreshnessBasis, type FreshnessBasis } from '../../src/domain/freshness.js';
import { unknownHealth, type SourceHealth } from '../../src/domain/source-health.js';
import type { SharedStateStatus } from '../../src/domain/shared-state.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { timedEnvelope, type PublicEnvelope } from './envelope.js';

export interface GatewayStatus {
  mode: string;
  cache: {
    state: 'warm' | 'partial' | 'cold';
    marketSnapshots: number;
    orderBookSnapshots: number;
    oldestSnapshotAt: number | null;
    newestSnapshotAt: number | null;
  };
  sources: (SourceHealth & { markets: number })[];
  venues: readonly { id: string; kind: string; mode: string; upstream: string; network: string | null; chainId: number | null }[];
  counts: { markets: number; protocols: number };
  /** Where this replica keeps shared state and whether it can reach it. */
  sharedState: SharedStateStatus;
}

export async function statusEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<GatewayStatus>> {
  const { reader, clock, protocols, config } = ctx.services;
  const now = clock.now();
  // Read before the data: an answer is reused only while nothing changed after this version.
  const version = ctx.services.answerVersion();
  const markets = reader.directory.markets;
  const [snapshots, books, health] = await Promise.all([
    reader.snapshots(markets.map((m) => m.id)),
    Promise.all(markets.filter((m) => m.hasOrderBook).map((m) => reader.orderBook(m.id))),
    reader.healthBySource(),
  ]);
  const times = snapshots.filter((s) => s !== undefined).map((s) => s.receivedAt);
  // Every configured source, even one listing nothing yet (a real venue before its first answer).
  const sourceIds = [...new Set([...ctx.services.sources.map((s) => s.id), ...markets.map((m) => m.sourceId)])];
  const sources = sourceIds.map((id) => ({ ...(health.get(id) ?? unknownHealth(id)), markets: reader.directory.ofSource(id).length }));
  const freshness: FreshnessBasis = { parts: sources.map((s) => sourceFreshnessBasis(s)), fallback: { missing: 'no_snapshot', sourceStatus: 'unknown' } };
  const status: GatewayStatus = {
    mode: config.mode,
    cache: {
      state: times.length === 0 ? 'cold' : times.length < markets.length ? 'partial' : 'warm',
      marketSnapshots: times.length,
      orderBookSnapshots: books.filter((b) => b !== undefined).length,
      oldestSnapshotAt: times.length ? Math.min(...times) : null,
      newestSnapshotAt: times.length ? Math.max(...times) : null,
    },
    sources,
    venues: ctx.services.venues,
    counts: { markets: markets.length, protocols: protocols.publicProtocols().length },
    sharedState: ctx.services.sharedState.status(),
  };
  return timedEnvelope(status, { version, now, freshness: [freshness] });
}
