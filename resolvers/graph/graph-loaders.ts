import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import type { OrderBookSnapshot } from '../../src/domain/market.js';
import type { SourceHealth } from '../../src/domain/source-health.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import type { HistoryReader } from '../../src/market-data/history-reader.js';
import { publicProtocolViews, type PublicProtocol } from '../public/protocols.js';

/** Request-scoped loaders behind graph fields: one batch per kind of read, whatever the number of markets. */
export interface GraphLoaders {
  history: HistoryReader;
  books: DataLoader<string, OrderBookSnapshot | undefined>;
  health: () => Promise<Map<string, SourceHealth>>;
  protocols: () => Promise<Map<string, PublicProtocol>>;
}

/**
 * Loaders of one execution: a query's, or one event's of a subscription. A subscription keeps its
 * context for all its events, so the loaders are keyed by the execution's root value too (graphql
 * executes each event with the event as root): a later event never sees an earlier event's reads.
 */
const perExecution = new WeakMap<GatewayContext, { root: unknown; loaders: GraphLoaders }>();

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}

/** The loaders of this execution (a query, or one subscription event), created on first use. */
export function loadersOf(ctx: GatewayContext, info: Pick<GraphQLResolveInfo, 'rootValue'>): GraphLoaders {
  const current = perExecution.get(ctx);
  let loaders = current && current.root === info.rootValue ? current.loaders : undefined;
  if (!loaders) {
    const { reader, history } = ctx.services;
    loaders = {
      history: history.batched(),
      books: new DataLoader((ids) => Promise.all(ids.map((id) => reader.orderBook(id)))),
      health: once(() => reader.healthBySource()),
      protocols: once(async () => new Map((await publicProtocolViews(ctx)).map((p) => [p.id, p]))),
    };
    perExecution.set(ctx, { root: info.rootValue, loaders });
  }
  return loaders;
}
