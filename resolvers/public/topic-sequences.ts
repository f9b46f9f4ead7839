import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import type { GatewayEventMap, GatewayEvents } from '../../src/events/gateway-events.js';
import { marketEventRouter } from '../../src/events/market-event-router.js';

/** The market topics whose events carry a per-market sequence number. */
export type SequencedTopic = 'market:updated' | 'orderbook:updated' | 'freshness:changed';

const MARKET_ID: { [K in SequencedTopic]: (payload: GatewayEventMap[K][0]) => string } = {
  'market:updated': (m) => m.id,
  'orderbook:updated': (b) => b.marketId,
  'freshness:changed': (f) => f.marketId,
};

const seen = new WeakMap<GatewayEvents, Map<SequencedTopic, Map<string, number>>>();

/**
 * The newest sequence number this process has seen per market on one topic, from the event bus
 * (every replica sees every event). Followed from the topic's first subscription with it on.
 */
export function topicSequences(ctx: GatewayContext, topic: SequencedTopic): Map<string, number> {
  const { events, reader } = ctx.services;
  let topics = seen.get(events);
  if (!topics) seen.set(events, (topics = new Map()));
  let latest = topics.get(topic);
  if (!latest) {
    const map = new Map<string, number>();
    latest = map;
    topics.set(topic, map);
    const idOf = MARKET_ID[topic] as (payload: GatewayEventMap[SequencedTopic][0]) => string;
    const byTopic = topics;
    marketEventRouter(events).listen(
      topic,
      reader.directory.markets.map((m) => m.id),
      idOf,
      (payload) => {
        const id = idOf(payload);
        if (payload.sequence !== undefined && payload.sequence > (map.get(id) ?? 0)) map.set(id, payload.sequence);
      },
      () => byTopic.delete(topic),
    );
  }
  return latest;
}

/**
 * The state sent on subscribe, stamped with each market's newest sequence number and, when the
 * client gave the last one it saw, whether events came after it (or none is known: then refetch).
 */
export function stampSequences<T extends object>(
  items: readonly T[],
  idOf: (item: T) => string,
  sequences: ReadonlyMap<string, number>,
  lastSequence: number | null | undefined,
): (T & { sequence?: number; missedEvents?: boolean })[] {
  return items.map((item) => {
    const sequence = sequences.get(idOf(item));
    const missedEvents = lastSequence == null ? undefined : sequence === undefined || sequence > lastSequence;
    return { ...item, sequence, missedEvents };
  });
}
