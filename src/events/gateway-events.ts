import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub, type PubSubEventTarget } from 'graphql-yoga';
import type { MarketFreshness, MarketView } from '../market-data/market-view.js';
import type { OrderBookView } from '../market-data/order-book-view.js';
import type { Approval, Execution } from '../execution/execution-types.js';

/** Every event the gateway publishes; payloads are complete when published. */
export type GatewayEventMap = {
  'market:updated': [MarketView];
  'orderbook:updated': [OrderBookView];
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
