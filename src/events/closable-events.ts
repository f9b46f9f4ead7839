import { Repeater } from 'graphql-yoga';
import type { GatewayEventMap, GatewayEvents } from './gateway-events.js';

/** The gateway's events, with an end for shutdown. */
export interface ClosableEvents extends GatewayEvents {
  /**
   * Completes every open subscription: GraphQL subscriptions then finish normally (an SSE stream
   * sends `complete` and ends, graphql-ws sends `complete`). Later subscriptions complete at once.
   */
  endSubscriptions(): void;
}

export function closableEvents(events: GatewayEvents): ClosableEvents {
  let ended = false;
  const open = new Set<() => void>();
  const subscribe = (topic: keyof GatewayEventMap) =>
    new Repeater<unknown>(async (push, stop) => {
      if (ended) return stop();
      const inner = (events.subscribe as (t: typeof topic) => AsyncIterator<unknown>)(topic);
      const end = () => stop();
      open.add(end);
      void stop.then(() => {
        open.delete(end);
        void inner.return?.();
      });
      for (let r = await inner.next(); !r.done; r = await inner.next()) await push(r.value);
      stop();
    });
  return {
    publish: events.publish.bind(events),
    subscribe: subscribe as GatewayEvents['subscribe'],
    endSubscriptions() {
      ended = true;
      for (const end of [...open]) end();
    },
  };
}
