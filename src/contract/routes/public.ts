import { MAX_AGE_MS } from '../../domain/freshness.js';
import { HISTORY_LIMIT, HISTORY_RESOLUTIONS } from '../../market-data/history-limits.js';
import type { RouteSpec } from '../route-spec.js';

const publicRoute = (r: Omit<RouteSpec, 'visibility' | 'scopes' | 'idempotent' | 'method'>): RouteSpec => ({
  method: 'GET',
  visibility: 'public',
  scopes: [],
  idempotent: false,
  ...r,
});

export const assetParam = { asset: 'A market id (BTC-PERP) or an asset symbol (BTC).' };

/** The public routes of the contract. Sofa routes, both OpenAPI documents and tests derive from the registry. */
export const PUBLIC_ROUTES: readonly RouteSpec[] = [
  publicRoute({
    operationId: 'listPublicMarkets',
    path: '/api/v1/public/markets',
    field: 'Query.markets',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'List public markets with their latest snapshot.',
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicMarket',
    path: '/api/v1/public/markets/{asset}',
    field: 'Query.market',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'One market summary, by market id or asset symbol.',
    pathParams: assetParam,
    errors: { 404: { description: 'Unknown market: a stale not-found envelope.', envelope: true } },
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicMarketHistory',
    path: '/api/v1/public/markets/{asset}/history',
    field: 'Query.marketHistory',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Stored candle observations of a market; never fabricated.',
    pathParams: assetParam,
    queryParams: {
      resolution: { type: 'string', enum: HISTORY_RESOLUTIONS, default: '1d', description: 'Candle interval.' },
      from: { type: 'string', format: 'date-time', description: 'Inclusive lower bound (RFC 3339).' },
      to: { type: 'string', format: 'date-time', description: 'Inclusive upper bound (RFC 3339); defaults to the request time.' },
      limit: {
        type: 'integer',
        minimum: HISTORY_LIMIT.min,
        maximum: HISTORY_LIMIT.max,
        default: HISTORY_LIMIT.default,
        description: 'Maximum points; the most recent win.',
      },
      cursor: {
        type: 'string',
        description:
          'The nextCursor of the previous page: the same market and resolution, ending just before its oldest point (paging back past 366 points; equivalent to to = that point - 1 ms).',
      },
    },
    errors: { 404: { description: 'Unknown market: a stale, empty history envelope.', envelope: true } },
    invalidInputCode: 'invalid_public_market_history_query',
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicOrderBook',
    path: '/api/v1/public/markets/{asset}/orderbook',
    field: 'Query.orderBook',
    maxAgeMs: MAX_AGE_MS.orderBook,
    summary: 'At most 100 cumulative bid and ask levels from the public snapshot cache.',
    pathParams: assetParam,
    errors: {
      404: { description: 'Market unknown or without a public order book.', code: 'public_orderbook_not_available' },
      503: { description: 'The read-only order-book source is unavailable.', code: 'public_orderbook_unavailable' },
    },
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicProtocol',
    path: '/api/v1/public/protocols/{protocol}',
    field: 'Query.protocol',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Availability, visibility and certification of one public protocol and its actions.',
    pathParams: { protocol: 'A public protocol id (paper-perps).' },
    errors: { 404: { description: 'No public protocol with this id.', code: 'public_protocol_not_found' } },
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicStatus',
    path: '/api/v1/public/status',
    field: 'Query.status',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Cache state, per-source health, market and protocol counts.',
    caching: 'freshness',
  }),
  publicRoute({
    operationId: 'getPublicMarketsMirror',
    path: '/api/v1/public/data/markets.json',
    field: 'Query.marketsMirror',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'JSON mirror of the markets list for crawlers, caches and static clients.',
    caching: 'etag',
  }),
  publicRoute({
    operationId: 'getPublicProtocolsMirror',
    path: '/api/v1/public/data/protocols.json',
    field: 'Query.protocols',
    maxAgeMs: MAX_AGE_MS.default,
    summary: 'Metadata of every public protocol.',
    caching: 'etag',
  }),
  publicRoute({
    operationId: 'getPublicOpenApi',
    path: '/api/v1/public/openapi.public.json',
    field: 'Query.publicOpenApi',
    maxAgeMs: null,
    summary: 'The public contract as OpenAPI 3.1.',
    caching: 'none',
  }),
];
