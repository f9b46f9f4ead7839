/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "fragment DashboardFreshness on Freshness {\n  asOf\n  stale\n  staleReason\n  sourceStatus\n}\n\nfragment DashboardMarket on Market {\n  id\n  asset\n  protocol\n  price\n  change24hPct\n  hasOrderBook\n  freshness {\n    ...DashboardFreshness\n  }\n}\n\nfragment DashboardBookData on OrderBook {\n  marketId\n  bids {\n    price\n    cumulativeSize\n  }\n  asks {\n    price\n    cumulativeSize\n  }\n}\n\nfragment DashboardExecution on Execution {\n  executionId\n  protocol\n  action\n  state\n  updatedAt\n}\n\nquery DashboardMarkets {\n  markets {\n    data {\n      ...DashboardMarket\n    }\n  }\n  protocols {\n    data {\n      id\n      name\n      sourceStatus\n    }\n  }\n}\n\nquery DashboardHistory($asset: String!, $resolution: String, $limit: Int) {\n  marketHistory(asset: $asset, resolution: $resolution, limit: $limit) {\n    data {\n      points {\n        time\n        open\n        high\n        low\n        close\n      }\n    }\n  }\n}\n\nquery DashboardBook($asset: String!) {\n  orderBook(asset: $asset) {\n    data {\n      ...DashboardBookData\n    }\n  }\n}\n\nsubscription DashboardBookUpdates($asset: String!) {\n  orderBookUpdated(asset: $asset) {\n    data {\n      ...DashboardBookData\n    }\n  }\n}\n\nsubscription DashboardMarketUpdates {\n  marketUpdated {\n    ...DashboardMarket\n  }\n}\n\nsubscription DashboardFreshness {\n  freshnessChanged {\n    marketId\n    freshness {\n      ...DashboardFreshness\n    }\n  }\n}\n\nquery DashboardExecutions($limit: Int) {\n  executions(limit: $limit) {\n    data {\n      executions {\n        ...DashboardExecution\n      }\n    }\n  }\n}\n\nsubscription DashboardExecutionUpdates {\n  executionUpdated {\n    ...DashboardExecution\n  }\n}": typeof types.DashboardFreshnessFragmentDoc,
};
const documents: Documents = {
    "fragment DashboardFreshness on Freshness {\n  asOf\n  stale\n  staleReason\n  sourceStatus\n}\n\nfragment DashboardMarket on Market {\n  id\n  asset\n  protocol\n  price\n  change24hPct\n  hasOrderBook\n  freshness {\n    ...DashboardFreshness\n  }\n}\n\nfragment DashboardBookData on OrderBook {\n  marketId\n  bids {\n    price\n    cumulativeSize\n  }\n  asks {\n    price\n    cumulativeSize\n  }\n}\n\nfragment DashboardExecution on Execution {\n  executionId\n  protocol\n  action\n  state\n  updatedAt\n}\n\nquery DashboardMarkets {\n  markets {\n    data {\n      ...DashboardMarket\n    }\n  }\n  protocols {\n    data {\n      id\n      name\n      sourceStatus\n    }\n  }\n}\n\nquery DashboardHistory($asset: String!, $resolution: String, $limit: Int) {\n  marketHistory(asset: $asset, resolution: $resolution, limit: $limit) {\n    data {\n      points {\n        time\n        open\n        high\n        low\n        close\n      }\n    }\n  }\n}\n\nquery DashboardBook($asset: String!) {\n  orderBook(asset: $asset) {\n    data {\n      ...DashboardBookData\n    }\n  }\n}\n\nsubscription DashboardBookUpdates($asset: String!) {\n  orderBookUpdated(asset: $asset) {\n    data {\n      ...DashboardBookData\n    }\n  }\n}\n\nsubscription DashboardMarketUpdates {\n  marketUpdated {\n    ...DashboardMarket\n  }\n}\n\nsubscription DashboardFreshness {\n  freshnessChanged {\n    marketId\n    freshness {\n      ...DashboardFreshness\n    }\n  }\n}\n\nquery DashboardExecutions($limit: Int) {\n  executions(limit: $limit) {\n    data {\n      executions {\n        ...DashboardExecution\n      }\n    }\n  }\n}\n\nsubscription DashboardExecutionUpdates {\n  executionUpdated {\n    ...DashboardExecution\n  }\n}": types.DashboardFreshnessFragmentDoc,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment DashboardFreshness on Freshness {\n  asOf\n  stale\n  staleReason\n  sourceStatus\n}\n\nfragment DashboardMarket on Market {\n  id\n  asset\n  protocol\n  price\n  change24hPct\n  hasOrderBook\n  freshness {\n    ...DashboardFreshness\n  }\n}\n\nfragment DashboardBookData on OrderBook {\n  marketId\n  bids {\n    price\n    cumulativeSize\n  }\n  asks {\n    price\n    cumulativeSize\n  }\n}\n\nfragment DashboardExecution on Execution {\n  executionId\n  protocol\n  action\n  state\n  updatedAt\n}\n\nquery DashboardMarkets {\n  markets {\n    data {\n      ...DashboardMarket\n    }\n  }\n  protocols {\n    data {\n      id\n      name\n      sourceStatus\n    }\n  }\n}\n\nquery DashboardHistory($asset: String!, $resolution: String, $limit: Int) {\n  marketHistory(asset: $asset, resolution: $resolution, limit: $limit) {\n    data {\n      points {\n        time\n        open\n        high\n        low\n        close\n      }\n    }\n  }\n}\n\nquery DashboardBook($asset: String!) {\n  orderBook(asset: $asset) {\n    data {\n      ...DashboardBookData\n    }\n  }\n}\n\nsubscription DashboardBookUpdates($asset: String!) {\n  orderBookUpdated(asset: $asset) {\n    data {\n      ...DashboardBookData\n    }\n  }\n}\n\nsubscription DashboardMarketUpdates {\n  marketUpdated {\n    ...DashboardMarket\n  }\n}\n\nsubscription DashboardFreshness {\n  freshnessChanged {\n    marketId\n    freshness {\n      ...DashboardFreshness\n    }\n  }\n}\n\nquery DashboardExecutions($limit: Int) {\n  executions(limit: $limit) {\n    data {\n      executions {\n        ...DashboardExecution\n      }\n    }\n  }\n}\n\nsubscription DashboardExecutionUpdates {\n  executionUpdated {\n    ...DashboardExecution\n  }\n}"): typeof import('./graphql').DashboardFreshnessFragmentDoc;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
