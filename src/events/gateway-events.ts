import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub, type PubSubEventTarget } from 'graphql-yoga';
import type { MarketFreshness, MarketView } from '../market-data/market-view.js';
import type { OrderBookView } from '../market-data/order-book-view.js';
import type { Approval, Execution } from '../execution/execution-types.js';

/**
 * What a market event carries besides its payload: its number in its topic for its market (1, 2, …,
 * the same for every subscriber, set by the publisher) and when it was produced; on the state sent
 * on subscribe with a last sequence, whether events came after it.
 */
export interface EventSequence {
  sequence?: number;
  producedAt?: number;
  missedEvents?: boolean;
}

/** Every event the gateway publishes; payloads are complete when published. */
export type GatewayEventMap = {
  'market:updated': [MarketView & EventSequence];
  'orderbook:updated': [OrderBookView & EventSequence];
  'freshness:changed': [MarketFreshness];
  'approval:updated': [Approval];
  'execution:updated': [Execution];
};

export type GatewayEvents = PubSub<GatewayEventMap>;

/** In-process events by default; a shared event target (Redis) fans them out across replicas. */
export function createGatewayEvents(eventTarget?: PubSubEventTarget<GatewayEventMap>): GatewayEvents {
  return createPubSub<GatewayEventMap>({ eventTarget: eventTarget ?? localEventTarget() });
}

/**
 * One listener per open subscription of a topic: many subscribers are expected (they are bounded
 * per socket, key and address at the graphql-ws edge), so Node's 10-listener leak warning is off.
 */
function localEventTarget(): PubSubEventTarget<GatewayEventMap> {
  const target = new EventTarget();
  setMaxListeners(0, target);
  return target as unknown as PubSubEventTarget<GatewayEventMap>;
}
