import { sourceFreshnessBasis, type Freshness, type FreshnessBasis } from '../../src/domain/freshness.js';
import type { SourceHealth, SourceStatus } from '../../src/domain/source-health.js';
import type { ActionDefinition, CertificationState, ProtocolDefinition, ProtocolKind } from '../../src/protocols/protocol.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { timedEnvelope, type PublicEnvelope } from './envelope.js';
import { snapshotEtag, versionEtag, versionEtags } from './snapshot-etag.js';
import { notFound } from '../../src/errors/error-factories.js';

export type Availability = 'available' | 'degraded' | 'unavailable' | 'restricted';

export interface PublicAction {
  id: string;
  name: string;
  visibility: 'public';
  availability: Availability;
  certification: { state: CertificationState; certifiedAt: string | null };
}

export interface PublicProtocol {
  id: string;
  name: string;
  kind: ProtocolKind;
  visibility: 'public';
  availability: Availability;
  sourceStatus: SourceStatus;
  certification: { state: CertificationState; certifiedAt: string | null };
  markets: string[];
  actions: PublicAction[];
}

const byStatus: Record<SourceStatus, Availability> = { healthy: 'available', degraded: 'degraded', down: 'unavailable', unknown: 'unavailable' };

function actionAvailability(a: ActionDefinition, protocol: Availability): Availability {
  return a.certification === 'certified' ? protocol : 'restricted';
}

/** The protocol each public action view belongs to (graph fields ask; the REST payload stays as it is). */
const protocolOfView = new WeakMap<PublicAction, ProtocolDefinition>();

export function actionProtocol(a: PublicAction): ProtocolDefinition | undefined {
  return protocolOfView.get(a);
}

function publicAction(p: ProtocolDefinition, a: ActionDefinition, availability: Availability): PublicAction {
  const view: PublicAction = {
    id: a.id,
    name: a.name,
    visibility: 'public',
    availability: actionAvailability(a, availability),
    certification: { state: a.certification, certifiedAt: a.certifiedAt },
  };
  protocolOfView.set(view, p);
  return view;
}

function publicView(ctx: GatewayContext, p: ProtocolDefinition, health: SourceHealth | undefined): PublicProtocol {
  const sourceStatus = health?.status ?? 'unknown';
  const availability = byStatus[sourceStatus];
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    visibility: 'public',
    availability,
    sourceStatus,
    certification: { state: p.certification, certifiedAt: p.certifiedAt },
    markets: ctx.services.reader.directory.ofProtocol(p.id).map((m) => m.id),
    actions: p.actions.map((a) => publicAction(p, a, availability)),
  };
}

export async function protocolEnvelope(ctx: GatewayContext, id: string): Promise<PublicEnvelope<PublicProtocol>> {
  const p = ctx.services.protocols.publicProtocol(id);
  if (!p) {
    throw notFound('public_protocol_not_found', `No public protocol '${id}'.`, {
      nextAction: 'List public protocols with GET /api/v1/public/data/protocols.json.',
    });
  }
  const now = ctx.services.clock.now();
  const version = ctx.services.answerVersion();
  const health = await ctx.services.reader.sourceHealth(p.sourceId);
  return timedEnvelope(publicView(ctx, p, health), { version, now, freshness: [sourceFreshnessBasis(health)] });
}

/** Every public protocol's view, from one health read (graph fields). */
export async function publicProtocolViews(ctx: GatewayContext): Promise<PublicProtocol[]> {
  const health = await ctx.services.reader.healthBySource();
  return ctx.services.protocols.publicProtocols().map((p) => publicView(ctx, p, health.get(p.sourceId)));
}

export async function protocolsEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<PublicProtocol[]>> {
  const now = ctx.services.clock.now();
  // Read before the data: an answer is reused only while nothing changed after this version.
  const version = ctx.services.answerVersion();
  const health = await ctx.services.reader.healthBySource();
  const protocols = ctx.services.protocols.publicProtocols();
  const views = protocols.map((p) => publicView(ctx, p, health.get(p.sourceId)));
  const freshness: FreshnessBasis = {
    parts: protocols.map((p) => sourceFreshnessBasis(health.get(p.sourceId))),
    fallback: { missing: 'no_snapshot', sourceStatus: 'unknown' },
  };
  // The mirror's weak validator: from the version and the stale flag; without a version, or on
  // Redis replicas (versionEtags), a digest of the views and sources.
  const byVersion = versionEtags(ctx);
  const etag = (v: string | undefined, values: readonly Freshness[]) =>
    v === undefined || !byVersion
      ? snapshotEtag([JSON.stringify(views), ...protocols.map((p) => `${health.get(p.sourceId)?.lastSuccessAt}`), values[0]!.stale])
      : versionEtag(v, values[0]!.stale ? 1 : 0);
  return timedEnvelope(views, { version, now, freshness: [freshness], etag });
}
