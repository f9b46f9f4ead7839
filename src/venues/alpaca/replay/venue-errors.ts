/**
 * Alpaca's error answers (HTTP status plus JSON body) and the exception that carries one out of a
 * route. Bodies marked "recorded" are copied from `positions-delete-all.json` or from public
 * reports quoted in the replay README; the others keep Alpaca's `{code, message}` envelope with
 * wording of the fake's own.
 */

/** An error answer: HTTP status plus Alpaca's JSON body. */
export interface VenueError {
  status: number;
  body: Record<string, unknown>;
}

/** Thrown by the venue and the routes when Alpaca would refuse the request; the HTTP layer answers it. */
export class VenueRejection extends Error {
  override name = 'VenueRejection';
  constructor(readonly error: VenueError) {
    super(String(error.body.message ?? `HTTP ${error.status}`));
  }
}

/** Error bodies. Wording marked `recorded` is Alpaca's own; the rest is the fake's. */
export const errors = {
  /** Trading API, bad or missing key (recorded in public reports: code 40110000). */
  unauthorized: (): VenueError => ({ status: 401, body: { code: 40110000, message: 'request is not authorized' } }),
  /** Market-data API, bad or missing key: Alpaca's market-data FAQ says 403; body as reported publicly. */
  dataForbidden: (): VenueError => ({ status: 403, body: { message: 'forbidden.' } }),
  /** recorded (public reports): duplicate client order id. */
  duplicateClientOrderId: (): VenueError => ({ status: 422, body: { code: 40010001, message: 'client_order_id must be unique' } }),
  /** recorded (public reports). */
  insufficientBuyingPower: (buyingPower: string, costBasis: string): VenueError => ({
    status: 403,
    body: { buying_power: buyingPower, code: 40310000, cost_basis: costBasis, message: 'insufficient buying power' },
  }),
  /** recorded (positions-delete-all.json). */
  insufficientQty: (symbol: string, requested: string, available: string, existing: string, held: string): VenueError => ({
    status: 403,
    body: {
      available,
      code: 40310000,
      existing_qty: existing,
      held_for_orders: held,
      message: `insufficient qty available for order (requested: ${requested}, available: ${available})`,
      symbol,
    },
  }),
  /** recorded (positions-delete-all.json). */
  notAllowedToShort: (): VenueError => ({ status: 403, body: { code: 40310000, message: 'account is not allowed to short' } }),
  /** recorded (public reports). */
  notCancelable: (): VenueError => ({ status: 422, body: { code: 42210000, message: 'order is not cancelable' } }),
  orderNotFound: (id: string): VenueError => ({ status: 404, body: { code: 40410000, message: `order not found for ${id}` } }),
  positionNotFound: (): VenueError => ({ status: 404, body: { code: 40410000, message: 'position does not exist' } }),
  assetNotFound: (symbol: string): VenueError => ({ status: 404, body: { code: 40410000, message: `asset not found for ${symbol}` } }),
  invalid: (message: string, status = 422): VenueError => ({ status, body: { code: 40010001, message } }),
  unprocessable: (message: string): VenueError => ({ status: 422, body: { code: 42210000, message } }),
  /** The fake's wording: Alpaca queues day market orders while closed; this is for tests that need a refusal. */
  marketClosed: (): VenueError => ({ status: 403, body: { code: 40310000, message: 'market is closed' } }),
  rateLimited: (): VenueError => ({ status: 429, body: { code: 42910000, message: 'rate limit exceeded' } }),
  dataRateLimited: (): VenueError => ({ status: 429, body: { message: 'too many requests.' } }),
  internal: (): VenueError => ({ status: 500, body: { code: 50010000, message: 'internal server error occurred' } }),
  dataInternal: (): VenueError => ({ status: 500, body: { message: 'internal server error' } }),
  notFoundRoute: (): VenueError => ({ status: 404, body: { code: 40410000, message: 'endpoint not found' } }),
  /** Alpaca's wording for a free plan asking recent SIP data (market-data FAQ). */
  sipForbidden: (): VenueError => ({ status: 403, body: { message: 'subscription does not permit querying recent SIP data' } }),
};
