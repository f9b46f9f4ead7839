import { slowConsumer } from '../../src/errors/availability-refusals.js';
import { SUBSCRIPTION_BUFFER, SubscriptionOverflow, type GatewayEventMap, type GatewayEvents } from '../../src/events/gateway-events.js';

/**
 * A topic's events off the bus for an account's subscription: a subscriber that fell the bus's
 * buffer behind ends with the public `slow_consumer` error (as market subscriptions do), not the
 * bus's own.
 */
export function accountTopicEvents<K extends 'approval:updated' | 'execution:updated'>(events: GatewayEvents, topic: K): AsyncIterable<GatewayEventMap[K][0]> {
  const subscribe = events.subscribe as (topic: K) => AsyncIterable<GatewayEventMap[K][0]>;
  const source = subscribe(topic);
  return {
    [Symbol.asyncIterator]() {
      const iterator = source[Symbol.asyncIterator]();
      return {
        next: () =>
          iterator.next().catch((err: unknown) => {
            throw err instanceof SubscriptionOverflow ? slowConsumer(SUBSCRIPTION_BUFFER) : err;
          }),
        return: () => iterator.return?.() ?? Promise.resolve({ value: undefined, done: true as const }),
      };
    },
  };
}
