import type { MarketDefinition, MarketKind } from '../../src/domain/market.js';
import { combineFreshness, missingFreshness } from '../../src/domain/freshness.js';
import type { SourceStatus } from '../../src/domain/source-health.js';
import { invalidParameter } from '../../src/errors/error-factories.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import type { MarketView } from '../../src/market-data/market-view.js';
import { dailyReturns, returnCorrelation, type ReturnKind } from '../../src/market-data/return-correlation.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import type { PublicProtocol } from '../public/protocols.js';
import { loadersOf, type GraphLoaders } from './graph-loaders.js';
import type { GraphQLResolveInfo } from 'graphql';

export type MarketGraphNode =
  | { kind: 'market'; id: string; marketId: string; asset: string; quote: string; marketKind: MarketKind; view: MarketView | null }
  | { kind: 'asset'; id: string; symbol: string }
  | { kind: 'protocol'; id: string; protocolId: string; protocol: PublicProtocol }
  | { kind: 'venue'; id: string; venueId: string; sourceStatus: SourceStatus };

export type MarketGraphEdgeKind = 'listed_on' | 'base_asset' | 'quoted_in' | 'collateral_for' | 'correlation';

export interface MarketGraphEdge {
  kind: MarketGraphEdgeKind;
  /** Node ids (`market:BTC-PERP`, `asset:USDC`, …); a correlation edge runs from the earlier-listed market. */
  source: string;
  target: string;
  /** Correlation edges: Pearson's r of daily returns, rounded to CORRELATION_DECIMALS places. */
  correlation: number | null;
  /** Correlation edges: the number of days both markets have a return for. */
  observations: number | null;
}

export interface MarketGraph {
  windowDays: number;
  returns: ReturnKind;
  nodes: MarketGraphNode[];
  edges: MarketGraphEdge[];
}

export const WINDOW_DAYS = { min: 3, max: 365, default: 30 } as const;
/** Correlations are computed in float64 and rounded to this many decimal places. */
export const CORRELATION_DECIMALS = 6;
const DAY_MS = 86_400_000;

const marketNode = (id: string) => `market:${id}`;
const assetNode = (symbol: string) => `asset:${symbol}`;
const protocolNode = (id: string) => `protocol:${id}`;
const venueNode = (id: string) => `venue:${id}`;

/**
 * What the venues' own rules make collateral: a lending pool's supplied asset backs borrowing on
 * its protocol (75 % LTV), and a perpetual's quote asset is the margin posted on its protocol.
 */
function collateralOf(m: MarketDefinition): string | undefined {
  if (m.kind === 'lending') return m.asset;
  if (m.kind === 'perpetual') return m.quote;
  return undefined;
}

function parseWindow(windowDays: number | null | undefined): number {
  const days = windowDays ?? WINDOW_DAYS.default;
  if (!Number.isInteger(days) || days < WINDOW_DAYS.min || days > WINDOW_DAYS.max) {
    throw invalidParameter('invalid_market_graph_query', 'windowDays', `'windowDays' must be an integer from ${WINDOW_DAYS.min} to ${WINDOW_DAYS.max}`);
  }
  return days;
}

/**
 * Daily returns of every market over the last `windowDays` closed days, read from the stored
 * daily candles through the request's batched history reader: one store batch for all markets.
 */
async function returnsByMarket(loaders: GraphLoaders, markets: readonly MarketDefinition[], windowDays: number, kind: ReturnKind, now: number) {
  const history = loaders.history;
  const to = Math.floor(now / DAY_MS) * DAY_MS - 1;
  return Promise.all(
    markets.map(async (m) => {
      const result = await history.candles({ marketId: m.id, resolution: '1d', from: undefined, to, limit: windowDays + 1, now });
      const points = 'points' in result ? result.points.filter((p) => p.closed) : [];
      return dailyReturns(points, kind);
    }),
  );
}

const answered = new WeakSet<GatewayContext>();

/** The spec's market-graph envelope: markets, assets, protocols and venues, and the edges between them. */
export async function marketGraphEnvelope(
  ctx: GatewayContext,
  info: Pick<GraphQLResolveInfo, 'rootValue'>,
  args: { windowDays?: number | null; returns?: ReturnKind | null; minAbsCorrelation?: number | null },
): Promise<PublicEnvelope<MarketGraph>> {
  // All pairs of markets is the costliest answer the graph has: one per operation (aliases would repeat it).
  if (answered.has(ctx)) throw invalidParameter('invalid_market_graph_query', 'marketGraph', 'marketGraph may be selected once per operation.');
  answered.add(ctx);
  const windowDays = parseWindow(args.windowDays);
  const minAbs = args.minAbsCorrelation ?? 0;
  if (!(minAbs >= 0 && minAbs <= 1)) throw invalidParameter('invalid_market_graph_query', 'minAbsCorrelation', `'minAbsCorrelation' must be from 0 to 1`);
  const returns = args.returns ?? 'log';
  const { reader, clock } = ctx.services;
  const now = clock.now();
  const markets = reader.directory.markets;
  const loaders = loadersOf(ctx, info);
  const [{ views, missing }, protocols, health, series] = await Promise.all([
    reader.views(markets, now),
    loaders.protocols(),
    loaders.health(),
    returnsByMarket(loaders, markets, windowDays, returns, now),
  ]);
  const viewOf = new Map(views.map((v) => [v.id, v]));

  const nodes = new Map<string, MarketGraphNode>();
  const edges: MarketGraphEdge[] = [];
  const edge = (kind: MarketGraphEdgeKind, source: string, target: string) => edges.push({ kind, source, target, correlation: null, observations: null });
  const asset = (symbol: string) => {
    const id = assetNode(symbol);
    if (!nodes.has(id)) nodes.set(id, { kind: 'asset', id, symbol });
    return id;
  };
  for (const p of protocols.values()) nodes.set(protocolNode(p.id), { kind: 'protocol', id: protocolNode(p.id), protocolId: p.id, protocol: p });

  for (const m of markets) {
    const id = marketNode(m.id);
    nodes.set(id, { kind: 'market', id, marketId: m.id, asset: m.asset, quote: m.quote, marketKind: m.kind, view: viewOf.get(m.id) ?? null });
    const venue = venueNode(m.sourceId);
    if (!nodes.has(venue)) nodes.set(venue, { kind: 'venue', id: venue, venueId: m.sourceId, sourceStatus: health.get(m.sourceId)?.status ?? 'unknown' });
    edge('listed_on', id, venue);
    if (protocols.has(m.protocolId)) edge('listed_on', id, protocolNode(m.protocolId));
    edge('base_asset', id, asset(m.asset));
    edge('quoted_in', id, asset(m.quote));
  }
  const collateral = new Set<string>();
  for (const m of markets) {
    const symbol = collateralOf(m);
    const key = `${symbol}|${m.protocolId}`;
    if (!symbol || !protocols.has(m.protocolId) || collateral.has(key)) continue;
    collateral.add(key);
    edge('collateral_for', asset(symbol), protocolNode(m.protocolId));
  }

  const scale = 10 ** CORRELATION_DECIMALS;
  for (let i = 0; i < markets.length; i++) {
    for (let j = i + 1; j < markets.length; j++) {
      const r = returnCorrelation(series[i]!, series[j]!);
      if (!r) continue;
      const correlation = Math.round(r.correlation * scale) / scale;
      if (Math.abs(correlation) < minAbs) continue;
      edges.push({ kind: 'correlation', source: marketNode(markets[i]!.id), target: marketNode(markets[j]!.id), correlation, observations: r.observations });
    }
  }

  const parts = views.map((v) => v.freshness);
  if (missing.length > 0) parts.push(missingFreshness('no_snapshot', 'unknown', now));
  const freshness = combineFreshness(parts, missingFreshness('no_snapshot', 'unknown', now));
  return publicEnvelope({ windowDays, returns, nodes: [...nodes.values()], edges }, freshness, now);
}
