import type { MarketDefinition } from '../../src/domain/market.js';
import type { GatewayEventMap } from '../../src/events/gateway-events.js';
import type { MarketFreshness } from '../../src/market-data/market-view.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { notFound } from '../../src/errors/error-factories.js';
import { deliverDirect } from '../../src/events/direct-delivery.js';
import { marketEventRouter } from '../../src/events/market-event-router.js';
import { orderBookView } from '../../src/market-data/order-book-view.js';
import { stampSequences, topicSequences } from './topic-sequences.js';
import { slowConsumer } from '../../src/errors/availability-refusals.js';

/** The markets a subscription follows: one, or all when no asset is given. */
export function marketsFollowed(ctx: GatewayContext, asset: string | null | undefined): MarketDefinition[] {
  const { directory } = ctx.services.reader;
  if (asset === null || asset === undefined) return [...directory.markets];
  const market = directory.resolve(asset);
  if (!market) throw notFound('market_not_found', `Unknown market '${asset}'.`);
  return [market];
}

/**
 * Events of one topic for the followed markets, optionally preceded by the current state. The
 * subscriber is registered with the market router (one bus listener per topic, events routed by
 * market) before the current state is read, so no change falls in between. `return()` ends it at
 * once, even while it waits for an event.
 *
 * An event that arrives while the consumer waits for the next one, with nothing queued, goes by the
 * subscription's direct lane when it has one (a graphql-ws subscriber of a shared public event:
 * written to its socket at once, no promise chain per subscriber); otherwise it wakes the consumer
 * or is queued. A consumer that falls more than `maxQueued(markets)` events behind (a client not
 * reading) ends with a `slow_consumer` error instead of queueing without bound.
 */
export function followMarkets<K extends 'market:updated' | 'orderbook:updated' | 'freshness:changed'>(
  ctx: GatewayContext,
  topic: K,
  markets: readonly MarketDefinition[],
  idOf: (payload: GatewayEventMap[K][0]) => string,
  current?: () => Promise<GatewayEventMap[K][0][]>,
): AsyncIterableIterator<GatewayEventMap[K][0]> {
  type P = GatewayEventMap[K][0];
  const queue: P[] = [];
  let waiting: ((r: IteratorResult<P>) => void) | undefined;
  let done = false;
  let overflowed = false;
  const limit = maxQueued(markets.length);
  const finished = (): IteratorResult<P> => ({ value: undefined, done: true });
  const stop = marketEventRouter(ctx.services.events).listen(
    topic,
    markets.map((m) => m.id),
    idOf,
    (payload) => {
      if (waiting && queue.length === 0) {
        if (deliverDirect(ctx, payload)) return;
        const wake = waiting;
        waiting = undefined;
        wake({ value: payload, done: false });
      } else if (queue.length < limit) queue.push(payload);
      else {
        overflowed = true;
        queue.length = 0;
        stop();
      }
    },
    () => {
      // Shutdown: what is queued is still delivered, then the subscription completes.
      done = true;
      const wake = waiting;
      waiting = undefined;
      wake?.(finished());
    },
  );
  let initial = current?.();
  const iterator: AsyncIterableIterator<P> = {
    async next() {
      if (initial) {
        const state = initial;
        initial = undefined;
        queue.unshift(...(await state));
      }
      if (queue.length > 0) return { value: queue.shift()!, done: false };
      if (overflowed && !done) {
        done = true;
        throw slowConsumer(limit);
      }
      if (done) return finished();
      return new Promise<IteratorResult<P>>((resolve) => (waiting = resolve));
    },
    async return() {
      done = true;
      stop();
      queue.length = 0;
      const wake = waiting;
      waiting = undefined;
      wake?.(finished());
      return finished();
    },
    async throw(error: unknown) {
      await iterator.return!();
      throw error;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** Events one subscription may fall behind: a few rounds of every market it follows, at least 256. */
export function maxQueued(markets: number): number {
  return Math.max(256, 4 * markets);
}

/**
 * Freshness of the followed markets: the current state first (with each market's newest sequence
 * number, and with `lastSequence`, whether events came after it), then every event.
 */
export function freshnessUpdates(ctx: GatewayContext, asset: string | null | undefined, lastSequence?: number | null): AsyncIterableIterator<MarketFreshness> {
  const markets = marketsFollowed(ctx, asset);
  const now = ctx.services.clock.now();
  const sequences = topicSequences(ctx, 'freshness:changed');
  return followMarkets(
    ctx,
    'freshness:changed',
    markets,
    (f) => f.marketId,
    async () => stampSequences(await ctx.services.reader.freshnessOf(markets, now), (f) => f.marketId, sequences, lastSequence),
  );
}

/**
 * New snapshots of the followed markets. With `lastSequence` (a client reconnecting), the current
 * snapshots come first, each with its market's newest sequence number and whether events came after it.
 */
export function marketUpdates(ctx: GatewayContext, asset: string | null | undefined, lastSequence?: number | null) {
  const markets = marketsFollowed(ctx, asset);
  // Followed from any subscription on, so a client that reconnects later finds its sequence known.
  const sequences = topicSequences(ctx, 'market:updated');
  if (lastSequence == null) return followMarkets(ctx, 'market:updated', markets, (m) => m.id);
  return followMarkets(
    ctx,
    'market:updated',
    markets,
    (m) => m.id,
    async () => stampSequences((await ctx.services.reader.views(markets, ctx.services.clock.now())).views, (m) => m.id, sequences, lastSequence),
  );
}

/**
 * New order books of one market. With `lastSequence`, its current book comes first (when it has
 * one and its source is up), with the newest sequence number and whether events came after it.
 */
export function orderBookUpdates(ctx: GatewayContext, asset: string, lastSequence?: number | null) {
  const markets = marketsFollowed(ctx, asset);
  const sequences = topicSequences(ctx, 'orderbook:updated');
  if (lastSequence == null) return followMarkets(ctx, 'orderbook:updated', markets, (b) => b.marketId);
  const { reader, clock } = ctx.services;
  const current = async () => {
    const books = await Promise.all(
      markets.map(async (m) => {
        const status = await reader.sourceStatus(m.sourceId);
        const book = m.hasOrderBook && status !== 'down' ? await reader.orderBook(m.id) : undefined;
        return book ? [orderBookView(m, book, status, clock.now())] : [];
      }),
    );
    return stampSequences(books.flat(), (b) => b.marketId, sequences, lastSequence);
  };
  return followMarkets(ctx, 'orderbook:updated', markets, (b) => b.marketId, current);
}
