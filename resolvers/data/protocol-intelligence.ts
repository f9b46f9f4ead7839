import type { SourceStatus } from '../../src/domain/source-health.js';
import { Decimal } from '../../src/domain/decimal.js';
import { combineFreshness, missingFreshness } from '../../src/domain/freshness.js';
import type { CertificationState, ProtocolKind } from '../../src/protocols/protocol.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { notFound } from '../../src/errors/error-factories.js';

export interface ProtocolIntelligence {
  protocolId: string;
  name: string;
  kind: ProtocolKind;
  sourceStatus: SourceStatus;
  consecutiveFailures: number;
  lastSuccessAt: number | null;
  marketCount: number;
  volume24hUsd: string;
  openInterestUsd: string | null;
  averageFundingRate: string | null;
  averageSupplyApy: string | null;
  actions: { id: string; certification: CertificationState }[];
}

const sum = (values: string[]) => values.reduce((a, v) => a.plus(v), new Decimal(0));

/** Aggregates of one (non-hidden) protocol's markets and the health of its venue. */
export async function protocolIntelligenceEnvelope(ctx: GatewayContext, protocolId: string): Promise<PublicEnvelope<ProtocolIntelligence>> {
  const protocol = ctx.services.protocols.get(protocolId);
  if (!protocol || protocol.visibility === 'hidden') {
    throw notFound('protocol_not_found', `No protocol '${protocolId}'.`);
  }
  const { reader, clock } = ctx.services;
  const now = clock.now();
  const [{ views }, health] = await Promise.all([reader.views(reader.directory.ofProtocol(protocol.id), now), reader.sourceHealth(protocol.sourceId)]);
  const funding = views.map((v) => v.fundingRate).filter((r) => r !== null);
  const supply = views.map((v) => v.supplyApy).filter((r) => r !== null);
  const oi = views.filter((v) => v.openInterest !== null);
  const data: ProtocolIntelligence = {
    protocolId: protocol.id,
    name: protocol.name,
    kind: protocol.kind,
    sourceStatus: health?.status ?? 'unknown',
    consecutiveFailures: health?.consecutiveFailures ?? 0,
    lastSuccessAt: health?.lastSuccessAt ?? null,
    marketCount: views.length,
    volume24hUsd: sum(views.map((v) => v.volume24h)).toFixed(2),
    openInterestUsd: oi.length ? sum(oi.map((v) => v.openInterest!)).toFixed(2) : null,
    averageFundingRate: funding.length ? sum(funding).div(funding.length).toFixed(8) : null,
    averageSupplyApy: supply.length ? sum(supply).div(supply.length).toFixed(4) : null,
    actions: protocol.actions.filter((a) => a.visibility !== 'hidden').map((a) => ({ id: a.id, certification: a.certification })),
  };
  const freshness = combineFreshness(
    views.map((v) => v.freshness),
    missingFreshness('no_snapshot', health?.status ?? 'unknown', now),
  );
  return publicEnvelope(data, freshness, now);
}
