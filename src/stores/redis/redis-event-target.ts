import type { PubSubEventTarget } from 'graphql-yoga';
import type { Logger } from 'pino';
import { isConnectionError, type RedisConnection } from './redis-connection.js';

type Listener = (event: CustomEvent) => void;
type ListenerArg = Listener | { handleEvent: Listener } | null;

/**
 * graphql-yoga's event target on Redis pub/sub (node-redis), so an event published by one
 * replica reaches subscribers on every replica. Each topic is a channel `events:<topic>`,
 * subscribed on the connection's subscriber client while this process has listeners for it;
 * payloads travel as JSON. A publish while Redis is unreachable is dropped (the outage is
 * logged by the connection); subscriptions made meanwhile are sent when it returns.
 */
export function createRedisEventTarget<TArgs extends Record<string, [] | [unknown] | [number | string, unknown]>>(
  redis: RedisConnection,
  logger: Logger,
): PubSubEventTarget<TArgs> {
  /** Per topic, what each registered function or listener object is called as. */
  const listeners = new Map<string, Map<Listener | object, Listener>>();
  const handlers = new Map<string, (message: string) => void>();
  const channelOf = (topic: string) => redis.key('events', topic);
  const quietly = (what: string) => (e: unknown) => {
    // Connection failures are the connection's to log (once per outage).
    if (!isConnectionError(e)) logger.warn({ err: e, what }, 'Redis pub/sub command failed');
  };
  const deliver = (topic: string) => (message: string) => {
    const callbacks = listeners.get(topic);
    if (!callbacks || callbacks.size === 0) return;
    const event = new CustomEvent(topic, { detail: message === '' ? null : JSON.parse(message) });
    for (const callback of callbacks.values()) callback(event);
  };

  const target = {
    addEventListener(topic: string, arg: ListenerArg) {
      if (arg === null) return;
      let callbacks = listeners.get(topic);
      if (!callbacks) {
        listeners.set(topic, (callbacks = new Map()));
        const handler = deliver(topic);
        handlers.set(topic, handler);
        redis.subscriber.subscribe(channelOf(topic), handler).catch(quietly('subscribe'));
      }
      callbacks.set(arg, typeof arg === 'function' ? arg : (event) => arg.handleEvent(event));
    },
    removeEventListener(topic: string, arg: ListenerArg) {
      const callbacks = listeners.get(topic);
      if (arg === null || !callbacks?.delete(arg) || callbacks.size > 0) return;
      listeners.delete(topic);
      const handler = handlers.get(topic);
      handlers.delete(topic);
      if (redis.subscriber.isOpen) redis.subscriber.unsubscribe(channelOf(topic), handler).catch(quietly('unsubscribe'));
    },
    dispatchEvent(event: CustomEvent) {
      const detail: unknown = event.detail;
      let message: string;
      try {
        message = detail === undefined || detail === null ? '' : JSON.stringify(detail);
      } catch (err) {
        logger.error({ err, topic: event.type }, 'event payload is not JSON; not published');
        return false;
      }
      redis.client.publish(channelOf(event.type), message).catch(quietly('publish'));
      return true;
    },
  };
  return target as unknown as PubSubEventTarget<TArgs>;
}
