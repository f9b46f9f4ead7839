import { Decimal } from '../../domain/decimal.js';
import type { RoutedOrderState, RoutedOrderStatus } from '../../execution/venues/routed-venue.js';
import { venueDecimal } from './hyperliquid-quotes.js';

/** An order as orderStatus, openOrders and the orderUpdates stream carry it (sz is what is still unfilled). */
export interface VenueOrder {
  oid: number;
  limitPx: string;
  sz: string;
  origSz: string;
  cloid?: string | null;
}

/** A fill as userFills and its stream carry it. */
export interface VenueFill {
  oid: number;
  tid: number;
  px: string;
  sz: string;
  fee: string;
  feeToken: string;
}

/**
 * The routed status of the venue's processing status: open (partially filled once anything
 * filled); filled; every `…Rejected` a rejection (nothing filled) and every cancel (`canceled`,
 * `marginCanceled`, `scheduledCancel`, …) a cancellation, a cancelled one keeping what filled
 * before (an immediate-or-cancel order's unfilled rest is cancelled by the venue this way).
 */
export function routedStatus(status: string, filled: Decimal): RoutedOrderStatus {
  if (status === 'open' || status === 'triggered') return filled.gt(0) ? 'partially_filled' : 'open';
  if (status === 'filled') return 'filled';
  if (status === 'rejected' || status.endsWith('Rejected')) return filled.gt(0) ? 'cancelled' : 'rejected';
  return 'cancelled';
}

/** What the fills say: the filled size, the average price and the fees (in the fills' token, USDC for perps). */
export function fillSummary(fills: readonly VenueFill[]): { filled: Decimal; averagePrice: string | null; fee: string; feeToken: string } {
  let filled = new Decimal(0);
  let notional = new Decimal(0);
  let fee = new Decimal(0);
  for (const f of fills) {
    const sz = new Decimal(venueDecimal(f.sz, 'fill size'));
    filled = filled.plus(sz);
    notional = notional.plus(sz.times(venueDecimal(f.px, 'fill price')));
    fee = fee.plus(new Decimal(f.fee));
  }
  return {
    filled,
    averagePrice: filled.gt(0) ? notional.div(filled).toDecimalPlaces(8).toString() : null,
    fee: fee.toString(),
    feeToken: fills[0]?.feeToken ?? 'USDC',
  };
}

/** The filled size of a venue order: what was asked less what is still open. */
export const filledOf = (o: VenueOrder) => new Decimal(venueDecimal(o.origSz, 'order size')).minus(venueDecimal(o.sz, 'order size'));

const REASONS: Record<string, string> = {
  canceled: 'Cancelled at the venue.',
  marginCanceled: 'Cancelled by the venue: insufficient margin.',
  scheduledCancel: 'Cancelled by the venue: scheduled cancel.',
  iocCancelRejected: 'Immediate-or-cancel: nothing matched; cancelled by the venue.',
};

/**
 * The routed state of a venue order from its status and its fills (the fills give the average
 * price and the fees; without any the limit price stands in for the price, the fee is unknown
 * as 0). An immediate-or-cancel order that filled in part is `cancelled` with what filled.
 */
export function orderState(clientOrderId: string, order: VenueOrder, status: string, at: number, fills: readonly VenueFill[]): RoutedOrderState {
  const filled = filledOf(order);
  const summary = fillSummary(fills);
  const routed = routedStatus(status, filled);
  const reason =
    routed === 'cancelled' || routed === 'rejected'
      ? (REASONS[status] ?? `${routed === 'rejected' ? 'Rejected' : 'Cancelled'} by the venue (${status}).`)
      : null;
  return {
    clientOrderId,
    venueOrderId: String(order.oid),
    status: routed,
    filledAmount: filled.toString(),
    averagePrice: filled.gt(0) ? (summary.averagePrice ?? order.limitPx) : null,
    fee: summary.fee,
    feeToken: summary.feeToken,
    reason,
    at,
  };
}
