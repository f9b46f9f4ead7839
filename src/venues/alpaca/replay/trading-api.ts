/**
 * Routes of the fake's trading API (paper-api.alpaca.markets): clock, account, assets, orders
 * (create, list, get, get by client order id, cancel one, cancel all) and positions. The state
 * lives in {@link TradingVenue}; these routes only translate HTTP to it.
 */
import type { Route } from './http-server.js';
import type { TradingVenue } from './trading-venue.js';
import type { VenueClock } from './venue-clock.js';
import { VenueRejection, errors } from './venue-errors.js';

export function tradingRoutes(venue: TradingVenue, clock: VenueClock): Route[] {
  return [
    { method: 'GET', pattern: /^\/v2\/clock$/, handle: () => ({ status: 200, body: clock.legacy() }) },
    { method: 'GET', pattern: /^\/v3\/clock$/, handle: () => ({ status: 200, body: clock.v3() }) },
    { method: 'GET', pattern: /^\/v2\/account$/, handle: () => ({ status: 200, body: venue.account() }) },
    { method: 'GET', pattern: /^\/v2\/assets$/, handle: (ctx) => ({ status: 200, body: venue.listAssets(ctx.query) }) },
    {
      method: 'GET',
      pattern: /^\/v2\/assets\/([^/]+)$/,
      handle: (_ctx, [symbol]) => {
        const asset = venue.asset(symbol ?? '');
        if (!asset) throw new VenueRejection(errors.assetNotFound(symbol ?? ''));
        return { status: 200, body: asset };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v2\/orders$/,
      handle: (ctx) => {
        const { order, settle } = venue.submit(ctx.body);
        return { status: 200, body: order, after: settle };
      },
    },
    { method: 'GET', pattern: /^\/v2\/orders$/, handle: (ctx) => ({ status: 200, body: venue.listOrders(ctx.query) }) },
    { method: 'DELETE', pattern: /^\/v2\/orders$/, handle: () => ({ status: 207, body: venue.cancelAll() }) },
    {
      method: 'GET',
      pattern: /^\/v2\/orders:by_client_order_id$/,
      handle: (ctx) => {
        const clientOrderId = ctx.query.get('client_order_id');
        if (!clientOrderId) throw new VenueRejection(errors.invalid('client_order_id is required'));
        const order = venue.orderByClientId(clientOrderId);
        if (!order) throw new VenueRejection(errors.orderNotFound(clientOrderId));
        return { status: 200, body: order };
      },
    },
    {
      method: 'GET',
      pattern: /^\/v2\/orders\/([^/]+)$/,
      handle: (_ctx, [id]) => {
        const order = venue.order(id ?? '');
        if (!order) throw new VenueRejection(errors.orderNotFound(id ?? ''));
        return { status: 200, body: order };
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/v2\/orders\/([^/]+)$/,
      handle: (_ctx, [id]) => {
        venue.requestCancel(id ?? '');
        return { status: 204 };
      },
    },
    { method: 'GET', pattern: /^\/v2\/positions$/, handle: () => ({ status: 200, body: venue.listPositions() }) },
    {
      method: 'GET',
      pattern: /^\/v2\/positions\/([^/]+)$/,
      handle: (_ctx, [symbol]) => {
        const position = venue.position((symbol ?? '').toUpperCase());
        if (!position) throw new VenueRejection(errors.positionNotFound());
        return { status: 200, body: position };
      },
    },
  ];
}
