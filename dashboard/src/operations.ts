/**
 * The dashboard's GraphQL operations, written against today's root fields as typed strings.
 * Each pairs a document with the shape of its result, so they can later be swapped for generated documents.
 */
export interface TypedOperation<Result, Variables = Record<string, never>> {
  readonly document: string;
  /** Phantom fields: they carry the types only. */
  readonly __result?: Result;
  readonly __variables?: Variables;
}

const op = <Result, Variables = Record<string, never>>(document: string): TypedOperation<Result, Variables> => ({ document });

export type SourceStatus = 'healthy' | 'degraded' | 'down' | 'unknown';

export interface Freshness {
  asOf: string;
  stale: boolean;
  staleReason: string | null;
  sourceStatus: SourceStatus;
}

export interface MarketRow {
  id: string;
  asset: string;
  protocol: string;
  price: string;
  change24hPct: string;
  hasOrderBook: boolean;
  freshness: Freshness;
}

export interface Candle {
  time: string;
  open: string;
  high: string;
  low: string;
  close: string;
}

export interface BookLevel {
  price: string;
  cumulativeSize: string;
}

export interface Book {
  marketId: string;
  bids: BookLevel[];
  asks: BookLevel[];
}

export interface ExecutionRow {
  executionId: string;
  protocol: string;
  action: string;
  state: string;
  updatedAt: string;
}

const MARKET_FIELDS = 'id asset protocol price change24hPct hasOrderBook freshness { asOf stale staleReason sourceStatus }';

export const MarketsQuery = op<{ markets: { data: MarketRow[] }; protocols: { data: { id: string; name: string; sourceStatus: SourceStatus }[] } }>(
  `query DashboardMarkets { markets { data { ${MARKET_FIELDS} } } protocols { data { id name sourceStatus } } }`,
);

export const MarketHistoryQuery = op<{ marketHistory: { data: { points: Candle[] } } }, { asset: string; resolution: string; limit: number }>(
  'query DashboardHistory($asset: String!, $resolution: String, $limit: Int) { marketHistory(asset: $asset, resolution: $resolution, limit: $limit) { data { points { time open high low close } } } }',
);

const BOOK_FIELDS = 'data { marketId bids { price cumulativeSize } asks { price cumulativeSize } }';

export const OrderBookQuery = op<{ orderBook: { data: Book } }, { asset: string }>(
  `query DashboardBook($asset: String!) { orderBook(asset: $asset) { ${BOOK_FIELDS} } }`,
);

export const OrderBookUpdated = op<{ orderBookUpdated: { data: Book } }, { asset: string }>(
  `subscription DashboardBookUpdates($asset: String!) { orderBookUpdated(asset: $asset) { ${BOOK_FIELDS} } }`,
);

export const MarketUpdated = op<{ marketUpdated: MarketRow }>(`subscription DashboardMarketUpdates { marketUpdated { ${MARKET_FIELDS} } }`);

export const FreshnessChanged = op<{ freshnessChanged: { marketId: string; freshness: Freshness } }>(
  'subscription DashboardFreshness { freshnessChanged { marketId freshness { asOf stale staleReason sourceStatus } } }',
);

const EXECUTION_FIELDS = 'executionId protocol action state updatedAt';

export const ExecutionsQuery = op<{ executions: { data: { executions: ExecutionRow[] } } }, { limit: number }>(
  `query DashboardExecutions($limit: Int) { executions(limit: $limit) { data { executions { ${EXECUTION_FIELDS} } } } }`,
);

export const ExecutionUpdated = op<{ executionUpdated: ExecutionRow }>(`subscription DashboardExecutionUpdates { executionUpdated { ${EXECUTION_FIELDS} } }`);
