import type { MarketDefinition, MarketKind } from '../../src/domain/market.js';
import { notFound } from '../../src/errors/error-factories.js';
import { marketDataUnavailable } from '../../src/errors/availability-refusals.js';
import type { MarketView } from '../../src/market-data/market-view.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';

/** A market of one kind by id or asset symbol, or a 404 error response naming what was asked. */
export function marketOfKind(ctx: GatewayContext, asset: string, kind: MarketKind): MarketDefinition {
  const market = ctx.services.reader.directory.resolveOfKind(asset, kind);
  if (!market) {
    throw notFound('market_not_found', `No ${kind.replace('_', ' ')} market for '${asset}'.`, { nextAction: 'List markets with GET /api/v1/public/markets.' });
  }
  return market;
}

/** The current view of a market; its absence means the data plane has nothing to serve yet. */
export async function currentView(ctx: GatewayContext, market: MarketDefinition, now: number): Promise<MarketView> {
  const view = await ctx.services.reader.view(market, now);
  if (!view) {
    throw marketDataUnavailable(market.id);
  }
  return view;
}
