import { CERTIFICATION_STATES } from '../src/protocols/protocol.js';
import { protocolEnvelope, protocolsEnvelope, type PublicAction, type PublicProtocol } from '../resolvers/public/protocols.js';
import { builder } from './builder.js';
import { ProtocolKindEnum } from './closed-sets.js';
import { envelopeType } from './envelope.js';
import { SourceStatusEnum } from './freshness.js';

export const CertificationStateEnum = builder.enumType('CertificationState', { values: CERTIFICATION_STATES });
const AvailabilityEnum = builder.enumType('Availability', { values: ['available', 'degraded', 'unavailable', 'restricted'] as const });
const VisibilityEnum = builder.enumType('Visibility', { values: ['public'] as const });

const CertificationRef = builder.objectRef<PublicProtocol['certification']>('Certification').implement({
  fields: (t) => ({
    state: t.field({ type: CertificationStateEnum, resolve: (c) => c.state }),
    certifiedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.certifiedAt }),
  }),
});

export const PublicActionRef = builder.objectRef<PublicAction>('PublicAction').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    visibility: t.field({ type: VisibilityEnum, resolve: (a) => a.visibility }),
    availability: t.field({ type: AvailabilityEnum, resolve: (a) => a.availability }),
    certification: t.field({ type: CertificationRef, resolve: (a) => a.certification }),
  }),
});

export const PublicProtocolRef = builder.objectRef<PublicProtocol>('PublicProtocol').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    kind: t.field({ type: ProtocolKindEnum, resolve: (p) => p.kind }),
    visibility: t.field({ type: VisibilityEnum, resolve: (p) => p.visibility }),
    availability: t.field({ type: AvailabilityEnum, resolve: (p) => p.availability }),
    sourceStatus: t.field({ type: SourceStatusEnum, resolve: (p) => p.sourceStatus }),
    certification: t.field({ type: CertificationRef, resolve: (p) => p.certification }),
    markets: t.exposeStringList('markets'),
    actions: t.field({ type: [PublicActionRef], resolve: (p) => p.actions }),
  }),
});

const ProtocolEnvelope = envelopeType('ProtocolEnvelope', PublicProtocolRef, { description: 'Public envelope: one protocol.' });
const ProtocolsEnvelope = envelopeType('ProtocolsEnvelope', [PublicProtocolRef], { description: 'Public envelope: every public protocol.' });

builder.queryFields((t) => ({
  protocol: t.field({
    type: ProtocolEnvelope,
    description: 'GET /api/v1/public/protocols/{protocol}',
    args: { protocol: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => protocolEnvelope(ctx, args.protocol),
  }),
  protocols: t.field({
    type: ProtocolsEnvelope,
    description: 'GET /api/v1/public/data/protocols.json',
    resolve: (_root, _args, ctx) => protocolsEnvelope(ctx),
  }),
}));
