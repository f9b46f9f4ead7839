import {
  CORRELATION_DECIMALS,
  marketGraphEnvelope,
  WINDOW_DAYS,
  type MarketGraph,
  type MarketGraphEdge,
  type MarketGraphNode,
} from '../resolvers/graph/market-graph.js';
import { GRAPH_ONLY } from '../src/http/rest/rest-schema.js';
import { builder } from './builder.js';
import { envelopeType } from './envelope.js';
import { SourceStatusEnum } from './freshness.js';
import { MarketKindEnum, MarketRef } from './market.js';
import { PublicProtocolRef } from './protocol.js';

type Node<K extends MarketGraphNode['kind']> = Extract<MarketGraphNode, { kind: K }>;

const NodeKindEnum = builder.enumType('MarketGraphNodeKind', { values: ['market', 'asset', 'protocol', 'venue'] as const });
const EdgeKindEnum = builder.enumType('MarketGraphEdgeKind', {
  description:
    'listed_on: market → venue and market → protocol; base_asset: market → the asset it prices; quoted_in: market → its quote asset; ' +
    'collateral_for: asset → protocol (a lending pool’s asset backs borrowing, a perpetual’s quote asset is its margin); ' +
    'correlation: market ↔ market, the correlation of their daily returns.',
  values: ['listed_on', 'base_asset', 'quoted_in', 'collateral_for', 'correlation'] as const,
});
const ReturnKindEnum = builder.enumType('ReturnKind', {
  description: 'log: ln(close / previous close); simple: close / previous close − 1.',
  values: ['log', 'simple'] as const,
});

const typeNames = { market: 'MarketGraphMarket', asset: 'MarketGraphAsset', protocol: 'MarketGraphProtocol', venue: 'MarketGraphVenue' } as const;

const MarketGraphNodeRef = builder.interfaceRef<MarketGraphNode>('MarketGraphNode').implement({
  description: 'A node of the market graph; `id` is `<kind>:<name>` (market:BTC-PERP, asset:USDC, protocol:paper-perps, venue:paper-perps).',
  resolveType: (n) => typeNames[n.kind],
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: NodeKindEnum, resolve: (n) => n.kind }),
  }),
});

builder.objectRef<Node<'market'>>(typeNames.market).implement({
  interfaces: [MarketGraphNodeRef],
  fields: (t) => ({
    marketId: t.exposeString('marketId'),
    asset: t.exposeString('asset'),
    quote: t.exposeString('quote'),
    marketKind: t.field({ type: MarketKindEnum, resolve: (n) => n.marketKind }),
    market: t.field({ type: MarketRef, nullable: true, description: 'The latest snapshot; null before the first.', resolve: (n) => n.view }),
  }),
});

builder.objectRef<Node<'asset'>>(typeNames.asset).implement({
  interfaces: [MarketGraphNodeRef],
  fields: (t) => ({ symbol: t.exposeString('symbol') }),
});

builder.objectRef<Node<'protocol'>>(typeNames.protocol).implement({
  interfaces: [MarketGraphNodeRef],
  fields: (t) => ({
    protocolId: t.exposeString('protocolId'),
    protocol: t.field({ type: PublicProtocolRef, resolve: (n) => n.protocol }),
  }),
});

builder.objectRef<Node<'venue'>>(typeNames.venue).implement({
  description: 'A market-data venue (source) listing markets.',
  interfaces: [MarketGraphNodeRef],
  fields: (t) => ({
    venueId: t.exposeString('venueId'),
    sourceStatus: t.field({ type: SourceStatusEnum, resolve: (n) => n.sourceStatus }),
  }),
});

const MarketGraphEdgeRef = builder.objectRef<MarketGraphEdge>('MarketGraphEdge').implement({
  fields: (t) => ({
    kind: t.field({ type: EdgeKindEnum, resolve: (e) => e.kind }),
    source: t.exposeID('source', { description: 'Node id the edge starts at.' }),
    target: t.exposeID('target', { description: 'Node id the edge ends at.' }),
    correlation: t.float({
      nullable: true,
      description: `Correlation edges: Pearson's r of the two markets' daily returns, in [-1, 1], computed in float64 and rounded to ${CORRELATION_DECIMALS} decimal places.`,
      resolve: (e) => e.correlation,
    }),
    observations: t.int({ nullable: true, description: 'Correlation edges: the days both markets have a return for.', resolve: (e) => e.observations }),
  }),
});

const MarketGraphRef = builder.objectRef<MarketGraph>('MarketGraph').implement({
  fields: (t) => ({
    windowDays: t.exposeInt('windowDays'),
    returns: t.field({ type: ReturnKindEnum, resolve: (g) => g.returns }),
    nodes: t.field({ type: [MarketGraphNodeRef], resolve: (g) => g.nodes }),
    edges: t.field({ type: [MarketGraphEdgeRef], resolve: (g) => g.edges }),
  }),
});

const MarketGraphEnvelope = envelopeType('MarketGraphEnvelope', MarketGraphRef, {
  description: "Public envelope (the spec's market-graph kind): markets, assets, protocols and venues, and the edges between them.",
});

builder.queryFields((t) => ({
  marketGraph: t.field({
    type: MarketGraphEnvelope,
    extensions: GRAPH_ONLY,
    description:
      'The market graph (GraphQL only, no REST route). Correlation edges come from the stored daily candles of the last `windowDays` closed days; ' +
      'a pair sharing fewer than 3 daily returns, or with a constant series, has none.',
    args: {
      windowDays: t.arg.int({ description: `Closed days of daily candles, ${WINDOW_DAYS.min} to ${WINDOW_DAYS.max} (default ${WINDOW_DAYS.default}).` }),
      returns: t.arg({ type: ReturnKindEnum, description: 'How a daily return is measured (default log).' }),
      minAbsCorrelation: t.arg.float({
        description: 'Only correlation edges with |r| at least this, 0 to 1 (default 0: every pair; a catalogue of n markets has n(n-1)/2).',
      }),
    },
    resolve: (_root, args, ctx, info) => marketGraphEnvelope(ctx, info, args),
  }),
}));
