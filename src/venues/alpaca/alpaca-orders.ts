import { createHash } from 'node:crypto';
import { orders, type trading } from '@alpacahq/alpaca-trade-api';
import { Decimal } from '../../domain/decimal.js';
import { FRACTIONAL_LIMIT_RULE, NO_POST_ONLY } from './alpaca-order-rules.js';
import { VenueRefusal, type RoutedOrder, type RoutedOrderState, type RoutedOrderStatus } from '../../execution/venues/routed-venue.js';

/** Alpaca charges no commission on US equities: fills report a zero fee in dollars. */
export const ALPACA_FEE_TOKEN = 'USD';

/** Alpaca takes quantities to 9 decimals (fractional shares, where the asset is fractionable). */
export const ALPACA_SIZE_DECIMALS = 9;

/**
 * The client order id of an account's referenceId: `gw-` and the SHA-256 of both in base64url
 * (46 characters; Alpaca allows 128, the gateway keeps within 48). The same every time, so a
 * retry finds the order instead of placing a second one.
 */
export function alpacaClientOrderId(accountId: string, referenceId: string): string {
  return `gw-${createHash('sha256').update(`${accountId}|${referenceId}`).digest('base64url')}`;
}

/**
 * The order Alpaca is sent: a market order as a DAY market order (Alpaca fills it at the market;
 * no slippage bound is sent), a limit order gtc or ioc, under the client order id. A rule the
 * preview already checked is checked again here, so nothing Alpaca would refuse leaves.
 */
export function alpacaOrderRequest(order: RoutedOrder): trading.PostOrderRequest {
  const common = { symbol: order.market.asset, side: order.side, qty: order.amount, clientOrderId: order.clientOrderId };
  if (order.type === 'market') return orders.buildMarketOrder({ ...common, timeInForce: 'day' });
  if (order.timeInForce === 'alo') throw new VenueRefusal('INVALID_REQUEST', NO_POST_ONLY);
  if (!new Decimal(order.amount).isInteger()) throw new VenueRefusal('INVALID_REQUEST', FRACTIONAL_LIMIT_RULE);
  if (order.price === null) throw new VenueRefusal('INVALID_REQUEST', 'a limit order needs a price');
  return orders.buildLimitOrder({ ...common, limitPrice: order.price, timeInForce: order.timeInForce });
}

const REASONS: Record<string, string> = {
  canceled: 'Cancelled at Alpaca.',
  expired: 'Expired at Alpaca (its time in force ended).',
  rejected: 'Rejected by Alpaca.',
  accepted: 'Accepted by Alpaca; routed when the market opens.',
  pending_cancel: 'Cancel requested at Alpaca.',
  done_for_day: 'Done for the day at Alpaca.',
};

/** The gateway's status of an Alpaca order: live ones open (or partially filled), ended ones filled, cancelled or rejected. */
export function routedStatusOf(status: string | undefined, filled: Decimal): RoutedOrderStatus {
  switch (status) {
    case 'filled':
      return 'filled';
    case 'canceled':
    case 'expired':
    case 'replaced':
      return 'cancelled';
    case 'rejected':
      return 'rejected';
    default:
      // partially_filled, and the statuses of an order still live there: new, accepted, pending_new, accepted_for_bidding, held, stopped,
      // suspended, calculated, pending_cancel, pending_replace, done_for_day (a GTC order resumes the next trading day; a DAY one then
      // expires). A status this code does not know is taken as live too: a later update or look-up settles it.
      return filled.gt(0) ? 'partially_filled' : 'open';
  }
}

/** An Alpaca order (a POST answer, a look-up, a trade update's order) as the gateway's record of it. */
export function alpacaOrderState(o: trading.Order, at?: Date): RoutedOrderState {
  if (!o.clientOrderId) throw new Error('Alpaca sent an order without its client_order_id');
  const filled = new Decimal(o.filledQty ?? '0');
  const status = o.status ?? undefined;
  const reason = status === 'replaced' ? `Replaced at Alpaca by order ${o.replacedBy ?? 'unknown'}.` : REASONS[status ?? ''];
  const time = at ?? o.updatedAt ?? o.submittedAt ?? o.createdAt;
  return {
    clientOrderId: o.clientOrderId,
    venueOrderId: o.id ?? null,
    status: routedStatusOf(status, filled),
    filledAmount: filled.toString(),
    averagePrice: filled.gt(0) && o.filledAvgPrice ? new Decimal(o.filledAvgPrice).toString() : null,
    fee: '0',
    feeToken: ALPACA_FEE_TOKEN,
    reason: reason ?? null,
    at: time instanceof Date ? time.getTime() : Date.now(),
  };
}

/** Whether an order state still rests at Alpaca. */
export const restsAtAlpaca = (s: RoutedOrderState): boolean => s.status === 'open' || s.status === 'partially_filled';
