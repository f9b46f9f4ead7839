import type { GatewayContext } from '../../src/http/gateway-context.js';
import type { GatewayEvents } from '../../src/events/gateway-events.js';
import { marketEventRouter } from '../../src/events/market-event-router.js';

const seen = new WeakMap<GatewayEvents, Map<string, number>>();

/**
 * The newest freshness sequence number this process has seen per market, from the event bus
 * (every replica sees every event). Followed from the first freshness subscription on.
 */
export function freshnessSequences(ctx: GatewayContext): Map<string, number> {
  const { events, reader } = ctx.services;
  let latest = seen.get(events);
  if (!latest) {
    const map = new Map<string, number>();
    latest = map;
    seen.set(events, map);
    marketEventRouter(events).listen(
      'freshness:changed',
      reader.directory.markets.map((m) => m.id),
      (f) => f.marketId,
      (f) => {
        if (f.sequence !== undefined && f.sequence > (map.get(f.marketId) ?? 0)) map.set(f.marketId, f.sequence);
      },
      () => seen.delete(events),
    );
  }
  return latest;
}
