import DataLoader from 'dataloader';
import type { OrderBookSnapshot } from '../../src/domain/market.js';
import type { SourceHealth } from '../../src/domain/source-health.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';
import type { HistoryReader } from '../../src/market-data/history-reader.js';
import { publicProtocolViews, type PublicProtocol } from '../public/protocols.js';

/** Request-scoped loaders behind graph fields: one batch per kind of read, whatever the number of markets. */
export interface GraphLoaders {
  history: HistoryReader;
  books: DataLoader<string, OrderBookSnapshot | undefined>;
  health: () => Promise<Map<string, SourceHealth>>;
  protocols: () => Promise<Map<string, PublicProtocol>>;
}

const perRequest = new WeakMap<GatewayContext, GraphLoaders>();

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}

/** The loaders of this request (a GraphQL operation), created on first use. */
export function loadersOf(ctx: GatewayContext): GraphLoaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    const { reader, history } = ctx.services;
    loaders = {
      history: history.batched(),
      books: new DataLoader((ids) => Promise.all(ids.map((id) => reader.orderBook(id)))),
      health: once(() => reader.healthBySource()),
      protocols: once(async () => new Map((await publicProtocolViews(ctx)).map((p) => [p.id, p]))),
    };
    perRequest.set(ctx, loaders);
  }
  return loaders;
}
