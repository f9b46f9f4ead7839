import { Repeater } from 'graphql-yoga';

/**
 * A subscription's events: the topic's events that `keep` accepts, optionally preceded by the
 * current state. Listening starts before the current state is read, so no change falls in
 * between. Ending it (socket closed, client `complete`) detaches from the topic at once: an async
 * generator waiting for a quiet topic's next event would only end when that event came, keeping
 * its listener, its context and the socket's cleanup waiting meanwhile.
 */
export function eventStream<T>(source: AsyncIterable<T>, keep: (event: T) => boolean, current?: () => Promise<T[]>): Repeater<T> {
  return new Repeater<T>(async (push, stop) => {
    const iterator = source[Symbol.asyncIterator]();
    const pending = iterator.next();
    void stop.then(() => iterator.return?.());
    if (current) for (const payload of await current()) await push(payload);
    for (let r = await pending; !r.done; r = await iterator.next()) if (keep(r.value)) await push(r.value);
    stop();
  });
}
