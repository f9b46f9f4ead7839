import type { MarketDefinition } from '../../src/domain/market.js';
import type { GatewayEventMap } from '../../src/events/gateway-events.js';
import type { MarketFreshness } from '../../src/market-data/market-view.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';
import { notFound } from '../../src/errors/error-factories.js';
import { eventStream } from '../../src/events/event-stream.js';

/** The markets a subscription follows: one, or all when no asset is given. */
export function marketsFollowed(ctx: GatewayContext, asset: string | null | undefined): MarketDefinition[] {
  const { directory } = ctx.services.reader;
  if (asset === null || asset === undefined) return [...directory.markets];
  const market = directory.resolve(asset);
  if (!market) throw notFound('market_not_found', `Unknown market '${asset}'.`);
  return [market];
}

/**
 * Events of one topic for the followed markets, optionally preceded by the current state.
 * Listening starts before the current state is read, so no change falls in between.
 */
export function followMarkets<K extends keyof GatewayEventMap>(
  ctx: GatewayContext,
  topic: K,
  markets: readonly MarketDefinition[],
  idOf: (payload: GatewayEventMap[K][0]) => string,
  current?: () => Promise<GatewayEventMap[K][0][]>,
): AsyncIterable<GatewayEventMap[K][0]> {
  const ids = new Set(markets.map((m) => m.id));
  const subscribe = ctx.services.events.subscribe as (topic: K) => AsyncIterable<GatewayEventMap[K][0]>;
  return eventStream(subscribe(topic), (payload) => ids.has(idOf(payload)), current);
}

export function freshnessUpdates(ctx: GatewayContext, asset: string | null | undefined): AsyncIterable<MarketFreshness> {
  const markets = marketsFollowed(ctx, asset);
  const now = ctx.services.clock.now();
  return followMarkets(
    ctx,
    'freshness:changed',
    markets,
    (f) => f.marketId,
    () => ctx.services.reader.freshnessOf(markets, now),
  );
}
