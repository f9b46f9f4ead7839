import { setMaxListeners } from 'node:events';
import { createPubSub, FixedBuffer, Repeater, type PubSub, type PubSubEventTarget } from 'graphql-yoga';
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

/**
 * Events one subscription holds for its reader. A burst (every update of one group commit, every
 * market of one ingest round) is published in one turn while readers take one event per turn, so
 * this is far above a burst; a reader past it has stopped reading.
 */
export const SUBSCRIPTION_BUFFER = 65_536;

/** A subscription's reader fell SUBSCRIPTION_BUFFER events behind: it is ended with this, the publisher never fails. */
export class SubscriptionOverflow extends Error {
  constructor(readonly topic: string) {
    super(`a subscription to ${topic} fell ${SUBSCRIPTION_BUFFER} events behind and was ended`);
    this.name = 'SubscriptionOverflow';
  }
}

/**
 * In-process events by default; a shared event target (Redis) fans them out across replicas.
 * graphql-yoga's pub/sub, each subscription with a buffer of its own: yoga's subscriptions hold
 * no buffer, so 1,024 events published in one turn before a reader's next read made the
 * publisher's dispatch throw (RepeaterOverflowError, out of an event listener: the process
 * exited). Here a subscription that overflows its buffer ends with SubscriptionOverflow; the
 * publisher and every other subscriber go on.
 */
export function createGatewayEvents(eventTarget?: PubSubEventTarget<GatewayEventMap>): GatewayEvents {
  const target = eventTarget ?? localEventTarget();
  const pubsub = createPubSub<GatewayEventMap>({ eventTarget: target });
  const subscribe = (routingKey: string, id?: string) => {
    const topic = id === undefined ? routingKey : `${routingKey}:${id}`;
    return new Repeater<unknown>((push, stop) => {
      const listener = (event: Event) => {
        try {
          void push((event as CustomEvent).detail);
        } catch {
          void stop(new SubscriptionOverflow(topic));
        }
      };
      target.addEventListener(topic as keyof GatewayEventMap, listener as never);
      void stop.then(() => target.removeEventListener(topic as keyof GatewayEventMap, listener as never));
    }, new FixedBuffer(SUBSCRIPTION_BUFFER));
  };
  return { publish: pubsub.publish, subscribe: subscribe as GatewayEvents['subscribe'] };
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
