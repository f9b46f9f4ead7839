import { MAX_AGE_MS } from '../../domain/freshness.js';
import { FUNDING_HISTORY_LIMIT } from '../../market-data/history-limits.js';
import type { RouteSpec } from '../route-spec.js';
import { assetParam } from './public.js';

export const dataRoute = (r: Omit<RouteSpec, 'visibility' | 'scopes' | 'idempotent' | 'method' | 'caching'> & { scopes?: readonly string[] }): RouteSpec => ({
  method: 'GET',
  visibility: 'authenticated',
  scopes: ['data:read'],
  idempotent: false,
  caching: 'none',
  ...r,
});

const perpAsset = { asset: 'A perpetual asset symbol (BTC) or market id (BTC-PERP).' };

/** Authenticated reads: Bearer API key with the listed scopes (spec, Authenticated endpoints). */
export const DATA_ROUTES: readonly RouteSpec[] = [
  dataRoute({
    operationId: 'getPerpPrice',
    path: '/api/v1/data/perps/price/{asset}',
    field: 'Query.perpPrice',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Current price of a perpetual; read-only.',
    pathParams: perpAsset,
    errors: { 404: { description: 'No perpetual market for this asset.', code: 'market_not_found' } },
  }),
  dataRoute({
    operationId: 'getPerpFunding',
    path: '/api/v1/data/perps/funding/{asset}',
    field: 'Query.perpFunding',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Current funding of a perpetual; monitoring data, not an execution signal.',
    pathParams: perpAsset,
    errors: { 404: { description: 'No perpetual market for this asset.', code: 'market_not_found' } },
  }),
  dataRoute({
    operationId: 'getPerpFundingHistory',
    path: '/api/v1/data/perps/funding/history/{asset}',
    field: 'Query.perpFundingHistory',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Settled hourly funding of a perpetual, most recent last.',
    pathParams: perpAsset,
    queryParams: {
      limit: {
        type: 'integer',
        minimum: FUNDING_HISTORY_LIMIT.min,
        maximum: FUNDING_HISTORY_LIMIT.max,
        default: FUNDING_HISTORY_LIMIT.default,
        description: 'Entries to return (hourly; 720 is 30 days).',
      },
      cursor: { type: 'string', description: 'The nextCursor of the previous page: the entries settled before it (the last 720 are kept).' },
    },
    invalidInputCode: 'invalid_funding_history_query',
    errors: { 404: { description: 'No perpetual market for this asset.', code: 'market_not_found' } },
  }),
  dataRoute({
    operationId: 'getOrderBook',
    path: '/api/v1/data/orderbook/{asset}',
    field: 'Query.dataOrderBook',
    maxAgeMs: MAX_AGE_MS.orderBook,
    summary: 'Order book of a market from the snapshot cache (at most 100 levels a side).',
    pathParams: assetParam,
    errors: {
      404: { description: 'Market unknown or without an order book.', code: 'orderbook_not_available' },
      503: { description: 'The order-book source is unavailable.', code: 'orderbook_unavailable' },
    },
  }),
  dataRoute({
    operationId: 'getLendingYield',
    path: '/api/v1/data/lending/yield/{asset}',
    field: 'Query.lendingYield',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Supply and borrow APY and utilisation of a lending market.',
    pathParams: { asset: 'A lending market id (USDC-LEND) or its asset (USDC).' },
    errors: { 404: { description: 'No lending market for this asset.', code: 'market_not_found' } },
  }),
  dataRoute({
    operationId: 'getPortfolio',
    path: '/api/v1/data/portfolio',
    field: 'Query.portfolio',
    maxAgeMs: MAX_AGE_MS.default,
    summary: "The key's account: wallet, balances and their value at current prices.",
  }),
  dataRoute({
    operationId: 'getPositions',
    path: '/api/v1/data/positions',
    field: 'Query.positions',
    maxAgeMs: MAX_AGE_MS.default,
    summary:
      "The key's open positions: perpetuals (size, entry, mark, unrealised PnL, margin, liquidation price) and lending (supplied, borrowed, accrued interest, LTV).",
  }),
  dataRoute({
    operationId: 'getProtocolIntelligence',
    path: '/api/v1/data/protocols/{protocol}/intelligence',
    field: 'Query.protocolIntelligence',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Activity and health of one protocol: volume, open interest, funding or yield, source health.',
    pathParams: { protocol: 'A protocol id (paper-perps).' },
    errors: { 404: { description: 'No such protocol.', code: 'protocol_not_found' } },
  }),
  dataRoute({
    operationId: 'getContractOpenApi',
    path: '/api/v1/openapi.json',
    field: 'Query.contractOpenApi',
    scopes: [],
    maxAgeMs: null,
    summary: 'The full contract (public and authenticated routes) as OpenAPI 3.1.',
  }),
];
