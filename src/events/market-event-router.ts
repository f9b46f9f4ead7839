import type { GatewayEventMap, GatewayEvents } from './gateway-events.js';

type MarketTopic = 'market:updated' | 'orderbook:updated' | 'freshness:changed';
type Payload<K extends MarketTopic> = GatewayEventMap[K][0];
type Callback = (payload: unknown) => void;

/**
 * One listener per topic on the event bus, dispatching each event only to the subscribers of its
 * market, instead of one bus listener per subscriber that sees every market's events and drops
 * the others (with 10,000 subscribers and 1,000 markets that was ten million wake-ups a round).
 */
class MarketEventRouter {
  private readonly topics = new Map<MarketTopic, Map<string, Set<Callback>>>();
  /** Per topic, what to call when the bus ends the topic's stream (shutdown). */
  private readonly enders = new Map<MarketTopic, Set<() => void>>();

  constructor(private readonly events: GatewayEvents) {}

  /**
   * Calls `callback` with every event of `topic` for one of `marketIds` from now on, and `onEnd`
   * once the bus ends the topic (shutdown); returns the unsubscribe.
   */
  listen<K extends MarketTopic>(
    topic: K,
    marketIds: readonly string[],
    idOf: (payload: Payload<K>) => string,
    callback: (payload: Payload<K>) => void,
    onEnd: () => void = () => undefined,
  ): () => void {
    const byId = this.topicIndex(topic, idOf);
    const enders = this.enders.get(topic)!;
    enders.add(onEnd);
    for (const id of marketIds) {
      let set = byId.get(id);
      if (!set) byId.set(id, (set = new Set()));
      set.add(callback as Callback);
    }
    return () => {
      enders.delete(onEnd);
      for (const id of marketIds) {
        const set = byId.get(id);
        set?.delete(callback as Callback);
        if (set?.size === 0) byId.delete(id);
      }
    };
  }

  private topicIndex<K extends MarketTopic>(topic: K, idOf: (payload: Payload<K>) => string): Map<string, Set<Callback>> {
    let byId = this.topics.get(topic);
    if (byId) return byId;
    this.topics.set(topic, (byId = new Map()));
    const enders = new Set<() => void>();
    this.enders.set(topic, enders);
    const index = byId;
    const subscribe = this.events.subscribe as (topic: K) => AsyncIterable<Payload<K>>;
    const iterator = subscribe(topic)[Symbol.asyncIterator]();
    // The first next() attaches the bus listener at once, so nothing published from here on is missed.
    const pump = async (pending: Promise<IteratorResult<Payload<K>>>) => {
      try {
        for (let r = await pending; !r.done; r = await iterator.next()) {
          const set = index.get(idOf(r.value));
          if (set) for (const callback of [...set]) callback(r.value);
        }
      } catch {
        // Overflowed (SubscriptionOverflow): ended as at shutdown, so its subscribers end and a later one starts anew.
      }
      // The bus ended the topic: a later listener starts a new stream (which ends at once after shutdown).
      if (this.topics.get(topic) === index) {
        this.topics.delete(topic);
        this.enders.delete(topic);
      }
      for (const end of [...enders]) end();
    };
    void pump(iterator.next());
    return index;
  }
}

const routers = new WeakMap<GatewayEvents, MarketEventRouter>();

/** The router of an event bus (one per gateway's bus, made on first use). */
export function marketEventRouter(events: GatewayEvents): MarketEventRouter {
  let router = routers.get(events);
  if (!router) routers.set(events, (router = new MarketEventRouter(events)));
  return router;
}
