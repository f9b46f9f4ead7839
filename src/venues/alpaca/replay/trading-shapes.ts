/**
 * Alpaca trading-API wire shapes (snake_case keys, money and quantities as decimal strings,
 * timestamps as RFC 3339 strings) and the error bodies the fake answers with.
 *
 * Key sets follow the recordings: the order object follows the real paper response inside
 * `positions-delete-all.json` (it has `subtag` and `source`; the docs-style examples do not), the
 * account follows `account.json`, the position `positions-symbol.json` (plus `qty_available` and
 * `asset_marginable`, which the SDK's model expects). Error bodies are in `venue-errors.ts`.
 */
import { createHash } from 'node:crypto';

export type OrderStatus =
  | 'new'
  | 'partially_filled'
  | 'filled'
  | 'done_for_day'
  | 'canceled'
  | 'expired'
  | 'replaced'
  | 'pending_cancel'
  | 'pending_replace'
  | 'accepted'
  | 'pending_new'
  | 'accepted_for_bidding'
  | 'stopped'
  | 'rejected'
  | 'suspended'
  | 'calculated'
  | 'held';

export const OPEN_STATUSES: ReadonlySet<OrderStatus> = new Set([
  'new',
  'partially_filled',
  'accepted',
  'pending_new',
  'pending_cancel',
  'pending_replace',
  'accepted_for_bidding',
  'held',
  'stopped',
  'suspended',
  'calculated',
]);

export interface WireOrder {
  id: string;
  client_order_id: string;
  created_at: string;
  updated_at: string;
  submitted_at: string;
  filled_at: string | null;
  expired_at: string | null;
  canceled_at: string | null;
  failed_at: string | null;
  replaced_at: string | null;
  replaced_by: string | null;
  replaces: string | null;
  asset_id: string;
  symbol: string;
  asset_class: string;
  notional: string | null;
  qty: string | null;
  filled_qty: string;
  filled_avg_price: string | null;
  order_class: string;
  order_type: string;
  type: string;
  side: 'buy' | 'sell';
  time_in_force: string;
  limit_price: string | null;
  stop_price: string | null;
  status: OrderStatus;
  extended_hours: boolean;
  legs: null;
  trail_percent: string | null;
  trail_price: string | null;
  hwm: string | null;
  position_intent: string;
  subtag: null;
  source: null;
}

export interface WireAsset {
  id: string;
  class: string;
  exchange: string;
  symbol: string;
  name: string;
  status: 'active' | 'inactive';
  tradable: boolean;
  marginable: boolean;
  maintenance_margin_requirement: number;
  margin_requirement_long: string;
  margin_requirement_short: string;
  shortable: boolean;
  easy_to_borrow: boolean;
  fractionable: boolean;
  attributes: string[];
}

export interface WirePosition {
  asset_id: string;
  symbol: string;
  exchange: string;
  asset_class: string;
  asset_marginable: boolean;
  qty: string;
  qty_available: string;
  avg_entry_price: string;
  side: 'long' | 'short';
  market_value: string;
  cost_basis: string;
  unrealized_pl: string;
  unrealized_plpc: string;
  unrealized_intraday_pl: string;
  unrealized_intraday_plpc: string;
  current_price: string;
  lastday_price: string;
  change_today: string;
}

/** One `trade_updates` payload (the `data` of a `{"stream":"trade_updates","data":...}` frame). */
export interface WireTradeUpdate {
  event: string;
  timestamp: string;
  order: WireOrder;
  execution_id?: string;
  price?: string;
  qty?: string;
  position_qty?: string;
}

/** A stable UUID-shaped id derived from a name (assets and the account keep their ids across runs). */
export function stableUuid(name: string): string {
  const hex = createHash('sha1').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
