import { statusEnvelope, type GatewayStatus } from '../resolvers/public/gateway-status.js';
import { withAnswerFacts } from '../src/http/rest/answer-facts.js';
import { builder } from './builder.js';
import { CacheWarmthEnum } from './closed-sets.js';
import { envelopeType } from './envelope.js';
import { SourceStatusEnum } from './freshness.js';

const CacheStateRef = builder.objectRef<GatewayStatus['cache']>('CacheState').implement({
  fields: (t) => ({
    state: t.field({ type: CacheWarmthEnum, description: 'warm, partial or cold.', resolve: (c) => c.state }),
    marketSnapshots: t.exposeInt('marketSnapshots'),
    orderBookSnapshots: t.exposeInt('orderBookSnapshots'),
    oldestSnapshotAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.oldestSnapshotAt }),
    newestSnapshotAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.newestSnapshotAt }),
  }),
});

const SourceHealthRef = builder.objectRef<GatewayStatus['sources'][number]>('SourceHealth').implement({
  fields: (t) => ({
    sourceId: t.exposeString('sourceId'),
    status: t.field({ type: SourceStatusEnum, resolve: (s) => s.status }),
    lastSuccessAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.lastSuccessAt }),
    lastAttemptAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.lastAttemptAt }),
    lastError: t.exposeString('lastError', { nullable: true }),
    consecutiveFailures: t.exposeInt('consecutiveFailures'),
    markets: t.exposeInt('markets'),
  }),
});

const CountsRef = builder.objectRef<GatewayStatus['counts']>('Counts').implement({
  fields: (t) => ({ markets: t.exposeInt('markets'), protocols: t.exposeInt('protocols') }),
});

const SharedStateRef = builder.objectRef<GatewayStatus['sharedState']>('SharedState').implement({
  description: 'Where this replica keeps shared state (cache, candles, keys, rate limits, pub/sub) and whether it can reach it.',
  fields: (t) => ({
    mode: t.exposeString('mode', { description: 'embedded (in-process) or redis.' }),
    connected: t.exposeBoolean('connected', { description: 'False while Redis is unreachable: reads are then served from local copies, marked stale.' }),
    lastError: t.exposeString('lastError', { nullable: true }),
    lastErrorAt: t.field({ type: 'DateTime', nullable: true, resolve: (s) => s.lastErrorAt }),
    ingestionLeader: t.exposeBoolean('ingestionLeader', { description: 'True while this replica runs ingestion (holds the lease).' }),
    replica: t.string({ nullable: true, description: 'This replica (Redis mode).', resolve: (s) => s.replica ?? null }),
    leadingReplica: t.string({
      nullable: true,
      description: 'The replica that runs ingestion, as this one last saw the lease.',
      resolve: (s) => s.leadingReplica ?? null,
    }),
  }),
});

const VenueStatusRef = builder.objectRef<GatewayStatus['venues'][number]>('VenueStatus').implement({
  description: 'A venue the gateway serves: real (its own upstream), simulated (in-process) or replay (recorded traffic played back).',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Its protocol and source id.' }),
    kind: t.exposeString('kind', { description: 'perpetuals, equities, token_swap or lending.' }),
    mode: t.exposeString('mode', { description: 'real, simulated or replay.' }),
    upstream: t.exposeString('upstream', { description: 'Where its data comes from (a host, never a credential).' }),
    network: t.exposeString('network', { nullable: true, description: 'mainnet or testnet, for a venue that has both; the chain, for a venue read from one.' }),
    chainId: t.exposeInt('chainId', { nullable: true, description: 'The EVM chain id, for a venue read from a chain (its RPC node must serve this chain).' }),
  }),
});

const GatewayStatusRef = builder.objectRef<GatewayStatus>('GatewayStatus').implement({
  fields: (t) => ({
    mode: t.exposeString('mode'),
    venues: t.field({ type: [VenueStatusRef], description: 'Which venues are real and which simulated.', resolve: (s) => s.venues }),
    cache: t.field({ type: CacheStateRef, resolve: (s) => s.cache }),
    sources: t.field({ type: [SourceHealthRef], resolve: (s) => s.sources }),
    counts: t.field({ type: CountsRef, resolve: (s) => s.counts }),
    sharedState: t.field({ type: SharedStateRef, resolve: (s) => s.sharedState }),
  }),
});

const StatusEnvelope = envelopeType('StatusEnvelope', GatewayStatusRef, { description: 'Public envelope: cache state, source health and counts.' });

builder.queryFields((t) => ({
  status: t.field({
    type: StatusEnvelope,
    description: 'GET /api/v1/public/status',
    resolve: (_root, _args, ctx) => statusEnvelope(ctx),
  }),
  publicOpenApi: t.field({
    type: 'JSONObject',
    description: 'GET /api/v1/public/openapi.public.json: the public contract (OpenAPI 3.1).',
    // The same document until the answer version moves: remembered, and compressed once.
    resolve: (_root, _args, ctx) => {
      const version = ctx.services.answerVersion();
      const document = ctx.services.contract.publicDocument();
      return version === undefined ? document : withAnswerFacts(document, { timed: { version, now: 0, freshness: [], constant: true } });
    },
  }),
}));
