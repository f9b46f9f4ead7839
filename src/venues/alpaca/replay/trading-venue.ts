/**
 * The paper-trading account behind the fake's trading API: orders with Alpaca's statuses, a
 * minimal execution model (market orders fill at the quote when the market is open, marketable
 * limit orders fill at the quote, the rest rest until a price move or a test control fills them),
 * positions, cash and buying power. Every state change is published as a `trade_updates` event.
 *
 * Simplifications (documented in the replay README): one cash account (multiplier 1, buying power
 * = cash − cost of open buy orders, no shorting), no exchange holidays, no replace (PATCH), no
 * bracket/OCO/OTO legs, stop and trailing-stop orders rest until a control fills them.
 */
import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { MarketDataStore } from './market-data-store.js';
import { OPEN_STATUSES, stableUuid, type OrderStatus, type WireAsset, type WireOrder, type WirePosition, type WireTradeUpdate } from './trading-shapes.js';
import { VenueRejection, errors, type VenueError } from './venue-errors.js';
import { formatMicros } from './venue-time.js';

/** What the next order submission does instead of the normal path (see `controls.orders.rejectNext`). */
export type NextOrderRejection =
  | { reason: 'insufficient_buying_power' | 'market_closed' }
  | { status: number; body: Record<string, unknown> }
  /** Accept the order (HTTP 200), then reject it on the stream (`rejected` event) right after. */
  | { async: true };

export interface AutoFill {
  /** Fill market orders at the quote as soon as they are routed (market open). Default true. */
  market: boolean;
  /** Fill limit orders whose price crosses the quote, on submission and on every price move. Default true. */
  marketableLimit: boolean;
}

export interface TradingVenueOptions {
  market: MarketDataStore;
  /** The venue's clock (the fake may run it behind or ahead of the machine's). */
  now: () => Date;
  isOpen: () => boolean;
  publish: (update: WireTradeUpdate) => void;
  assets: readonly WireAsset[];
  /** Key set and constant fields of the account object (from the recording). */
  accountTemplate: Record<string, unknown>;
  initialCash: string;
}

interface OrderState {
  wire: WireOrder;
  /** Total quantity; for a notional order it is set at the first fill. */
  total: Decimal | undefined;
  filled: Decimal;
  avgPrice: Decimal;
  notional: Decimal | undefined;
  seq: number;
}

interface PositionState {
  qty: Decimal;
  cost: Decimal;
}

const FRACTION_DIGITS = 9;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function money(value: Decimal): string {
  return value.toDecimalPlaces(FRACTION_DIGITS).toFixed();
}

function reject(error: VenueError): never {
  throw new VenueRejection(error);
}

function decimalField(body: Record<string, unknown>, key: string): Decimal | undefined {
  const raw = body[key];
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number') return reject(errors.invalid(`invalid ${key}`));
  try {
    const value = new Decimal(raw);
    if (!value.isFinite()) throw new Error('not finite');
    return value;
  } catch {
    return reject(errors.invalid(`invalid ${key}`));
  }
}

const SIDES = new Set(['buy', 'sell']);
const TYPES = new Set(['market', 'limit', 'stop', 'stop_limit', 'trailing_stop']);
const TIFS = new Set(['day', 'gtc', 'opg', 'cls', 'ioc', 'fok']);

export class TradingVenue {
  private readonly orders = new Map<string, OrderState>();
  private readonly byClientId = new Map<string, string>();
  private readonly positions = new Map<string, PositionState>();
  private readonly assetsBySymbol = new Map<string, WireAsset>();
  private readonly accountId = stableUuid('alpaca-replay-account');
  private cash: Decimal;
  private seq = 0;
  private nextRejection: NextOrderRejection | undefined;
  private holdCancels = false;
  readonly autoFill: AutoFill = { market: true, marketableLimit: true };

  constructor(private readonly options: TradingVenueOptions) {
    this.cash = new Decimal(options.initialCash);
    for (const asset of options.assets) this.assetsBySymbol.set(asset.symbol, asset);
  }

  // --- reads ---------------------------------------------------------------

  listAssets(query: URLSearchParams): WireAsset[] {
    const status = query.get('status');
    const assetClass = query.get('asset_class');
    const exchange = query.get('exchange');
    return [...this.assetsBySymbol.values()]
      .filter((a) => (!status || a.status === status) && (!assetClass || a.class === assetClass) && (!exchange || a.exchange === exchange))
      .map((a) => structuredClone(a));
  }

  asset(symbolOrId: string): WireAsset | undefined {
    const found = this.assetsBySymbol.get(symbolOrId) ?? [...this.assetsBySymbol.values()].find((a) => a.id === symbolOrId);
    return found && structuredClone(found);
  }

  order(id: string): WireOrder | undefined {
    const state = this.orders.get(id);
    return state && structuredClone(state.wire);
  }

  orderByClientId(clientOrderId: string): WireOrder | undefined {
    const id = this.byClientId.get(clientOrderId);
    return id === undefined ? undefined : this.order(id);
  }

  /** Every order the venue holds, oldest first (a test control: no page limit). */
  allOrders(): WireOrder[] {
    return [...this.orders.values()].map((o) => structuredClone(o.wire));
  }

  /** `GET /v2/orders`: status open (default) | closed | all, limit (default 50, at most 500), after/until, direction, symbols, side. */
  listOrders(query: URLSearchParams): WireOrder[] {
    const status = query.get('status') ?? 'open';
    if (!['open', 'closed', 'all'].includes(status)) reject(errors.invalid(`invalid status: ${status}`));
    const limitRaw = query.get('limit');
    const limit = limitRaw === null ? 50 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1) reject(errors.invalid(`invalid limit: ${limitRaw}`));
    const direction = query.get('direction') ?? 'desc';
    if (direction !== 'asc' && direction !== 'desc') reject(errors.invalid(`invalid direction: ${direction}`));
    const after = query.get('after');
    const until = query.get('until');
    const symbols = query.get('symbols')?.split(',').filter(Boolean);
    const side = query.get('side');
    const selected = [...this.orders.values()].filter((o) => {
      const open = OPEN_STATUSES.has(o.wire.status);
      if (status === 'open' && !open) return false;
      if (status === 'closed' && open) return false;
      if (symbols && !symbols.includes(o.wire.symbol)) return false;
      if (side && o.wire.side !== side) return false;
      const at = Date.parse(o.wire.submitted_at);
      if (after && !(at > Date.parse(after))) return false;
      if (until && !(at < Date.parse(until))) return false;
      return true;
    });
    selected.sort((a, b) => (direction === 'asc' ? a.seq - b.seq : b.seq - a.seq));
    return selected.slice(0, Math.min(limit, 500)).map((o) => structuredClone(o.wire));
  }

  listPositions(): WirePosition[] {
    return [...this.positions.keys()].sort().flatMap((symbol) => {
      const position = this.position(symbol);
      return position ? [position] : [];
    });
  }

  position(symbol: string): WirePosition | undefined {
    const state = this.positions.get(symbol);
    const asset = this.assetsBySymbol.get(symbol);
    if (!state || state.qty.isZero() || !asset) return undefined;
    const current = new Decimal(this.options.market.prices(symbol)?.last ?? state.cost.div(state.qty).toNumber());
    const snapshot = this.options.market.snapshot(symbol);
    const lastday = new Decimal(snapshot?.prevDailyBar?.c ?? current.toNumber());
    const marketValue = current.mul(state.qty);
    const pl = marketValue.minus(state.cost);
    const intraday = current.minus(lastday).mul(state.qty);
    const lastdayValue = lastday.mul(state.qty);
    return {
      asset_id: asset.id,
      symbol,
      exchange: asset.exchange,
      asset_class: asset.class,
      asset_marginable: asset.marginable,
      qty: money(state.qty),
      qty_available: money(state.qty.minus(this.heldForOrders(symbol))),
      avg_entry_price: money(state.cost.div(state.qty)),
      side: 'long',
      market_value: money(marketValue),
      cost_basis: money(state.cost),
      unrealized_pl: money(pl),
      unrealized_plpc: money(state.cost.isZero() ? new Decimal(0) : pl.div(state.cost)),
      unrealized_intraday_pl: money(intraday),
      unrealized_intraday_plpc: money(lastdayValue.isZero() ? new Decimal(0) : intraday.div(lastdayValue)),
      current_price: money(current),
      lastday_price: money(lastday),
      change_today: money(lastday.isZero() ? new Decimal(0) : current.minus(lastday).div(lastday)),
    };
  }

  account(): Record<string, unknown> {
    let longValue = new Decimal(0);
    for (const symbol of this.positions.keys()) {
      const p = this.position(symbol);
      if (p) longValue = longValue.plus(p.market_value);
    }
    const equity = this.cash.plus(longValue);
    const buyingPower = Decimal.max(0, this.buyingPower());
    return {
      ...structuredClone(this.options.accountTemplate),
      id: this.accountId,
      account_number: 'PA3REPLAY01',
      status: 'ACTIVE',
      currency: 'USD',
      cash: money(this.cash),
      buying_power: money(buyingPower),
      regt_buying_power: money(buyingPower),
      daytrading_buying_power: '0',
      non_marginable_buying_power: money(buyingPower),
      options_buying_power: money(buyingPower),
      equity: money(equity),
      last_equity: this.options.initialCash,
      portfolio_value: money(equity),
      long_market_value: money(longValue),
      short_market_value: '0',
      initial_margin: '0',
      maintenance_margin: '0',
      last_maintenance_margin: '0',
      multiplier: '1',
      shorting_enabled: false,
      sma: '0',
      accrued_fees: '0',
      balance_asof: formatMicros(this.options.now()).slice(0, 10),
    };
  }

  // --- submissions -----------------------------------------------------------

  /**
   * `POST /v2/orders`. Validates and books the order (status `pending_new` when the market is open,
   * `accepted` when closed) and returns it with `settle`, which the HTTP layer runs after it has
   * written the response: routing (`new`), automatic fills, or the queued asynchronous rejection.
   */
  submit(body: unknown): { order: WireOrder; settle: () => void } {
    if (!isObject(body)) return reject(errors.invalid('request body format is invalid', 400));
    const symbol = typeof body.symbol === 'string' ? body.symbol.toUpperCase() : '';
    if (!symbol) reject(errors.invalid('symbol is required'));
    const side = String(body.side ?? '');
    if (!SIDES.has(side)) reject(errors.invalid(`invalid side: ${side || '(missing)'}`));
    const type = String(body.type ?? '');
    if (!TYPES.has(type)) reject(errors.invalid(`invalid order type: ${type || '(missing)'}`));
    const tif = String(body.time_in_force ?? '');
    if (!TIFS.has(tif)) reject(errors.invalid(`invalid time_in_force: ${tif || '(missing)'}`));
    const qty = decimalField(body, 'qty');
    const notional = decimalField(body, 'notional');
    const limitPrice = decimalField(body, 'limit_price');
    const stopPrice = decimalField(body, 'stop_price');
    const trailPrice = decimalField(body, 'trail_price');
    const trailPercent = decimalField(body, 'trail_percent');
    if (qty && notional) reject(errors.invalid('only one of qty or notional may be given'));
    if (!qty && !notional) reject(errors.invalid('qty or notional is required'));
    if (qty && qty.lte(0)) reject(errors.invalid('qty must be > 0'));
    if (notional && notional.lte(0)) reject(errors.invalid('notional must be > 0'));
    if (notional && (type !== 'market' || tif !== 'day')) reject(errors.unprocessable('notional orders must be DAY market orders'));
    if ((type === 'limit' || type === 'stop_limit') && !limitPrice) reject(errors.invalid(`limit_price is required for ${type} orders`));
    if ((type === 'stop' || type === 'stop_limit') && !stopPrice) reject(errors.invalid(`stop_price is required for ${type} orders`));
    if (type === 'trailing_stop' && !trailPrice && !trailPercent) reject(errors.invalid('trail_price or trail_percent is required for trailing_stop orders'));
    if (type === 'market' && limitPrice) reject(errors.invalid('limit_price must not be given for market orders'));
    const clientOrderId = body.client_order_id === undefined || body.client_order_id === null ? randomUUID() : String(body.client_order_id);
    if (clientOrderId.length > 128) reject(errors.invalid('client_order_id must be no more than 128 characters'));
    if (this.byClientId.has(clientOrderId)) reject(errors.duplicateClientOrderId());
    const asset = this.assetsBySymbol.get(symbol);
    if (!asset) return reject(errors.invalid(`asset "${symbol}" not found`));
    if (asset.status !== 'active' || !asset.tradable) reject(errors.unprocessable(`asset ${symbol} is not tradable`));
    const fractional = notional !== undefined || (qty !== undefined && !qty.isInteger());
    if (fractional && !asset.fractionable) reject(errors.unprocessable(`asset ${symbol} is not fractionable`));
    if (fractional && tif !== 'day') reject(errors.unprocessable('fractional orders must be DAY orders'));
    const extendedHours = body.extended_hours === true;
    if (extendedHours && (type !== 'limit' || tif !== 'day')) reject(errors.unprocessable('extended hours order must be DAY limit orders'));

    let asyncReject = false;
    const queued = this.nextRejection;
    if (queued) {
      this.nextRejection = undefined;
      if ('async' in queued) asyncReject = true;
      else if ('reason' in queued) {
        if (queued.reason === 'market_closed') reject(errors.marketClosed());
        const cost = this.estimateCost(symbol, side, qty, notional, limitPrice);
        reject(errors.insufficientBuyingPower(money(Decimal.max(0, this.buyingPower())), money(cost)));
      } else reject({ status: queued.status, body: queued.body });
    }

    if (side === 'buy') {
      const cost = this.estimateCost(symbol, side, qty, notional, limitPrice);
      const buyingPower = this.buyingPower();
      if (cost.gt(buyingPower)) reject(errors.insufficientBuyingPower(money(Decimal.max(0, buyingPower)), money(cost)));
    } else {
      const held = this.positions.get(symbol)?.qty ?? new Decimal(0);
      if (held.lte(0)) reject(errors.notAllowedToShort());
      const requested = qty ?? notional!.div(this.marketPrice(symbol, 'sell') ?? 1).toDecimalPlaces(FRACTION_DIGITS, Decimal.ROUND_DOWN);
      const heldForOrders = this.heldForOrders(symbol);
      const available = held.minus(heldForOrders);
      if (requested.gt(available))
        reject(errors.insufficientQty(symbol, money(requested), money(Decimal.max(0, available)), money(held), money(heldForOrders)));
    }

    const now = formatMicros(this.options.now());
    const open = this.options.isOpen();
    const holding = this.positions.get(symbol)?.qty.gt(0) ?? false;
    const wire: WireOrder = {
      id: randomUUID(),
      client_order_id: clientOrderId,
      created_at: now,
      updated_at: now,
      submitted_at: now,
      filled_at: null,
      expired_at: null,
      canceled_at: null,
      failed_at: null,
      replaced_at: null,
      replaced_by: null,
      replaces: null,
      asset_id: asset.id,
      symbol,
      asset_class: asset.class,
      notional: notional ? money(notional) : null,
      qty: qty ? money(qty) : null,
      filled_qty: '0',
      filled_avg_price: null,
      order_class: typeof body.order_class === 'string' ? body.order_class : '',
      order_type: type,
      type,
      side: side as 'buy' | 'sell',
      time_in_force: tif,
      limit_price: limitPrice ? money(limitPrice) : null,
      stop_price: stopPrice ? money(stopPrice) : null,
      status: open || extendedHours ? 'pending_new' : 'accepted',
      extended_hours: extendedHours,
      legs: null,
      trail_percent: trailPercent ? money(trailPercent) : null,
      trail_price: trailPrice ? money(trailPrice) : null,
      hwm: null,
      position_intent:
        typeof body.position_intent === 'string' ? body.position_intent : side === 'buy' ? 'buy_to_open' : holding ? 'sell_to_close' : 'sell_to_open',
      subtag: null,
      source: null,
    };
    this.seq += 1;
    const state: OrderState = { wire, total: qty, filled: new Decimal(0), avgPrice: new Decimal(0), notional, seq: this.seq };
    this.orders.set(wire.id, state);
    this.byClientId.set(clientOrderId, wire.id);
    const snapshot = structuredClone(wire);
    return {
      order: snapshot,
      settle: () => {
        if (asyncReject) return this.finish(state, 'rejected', 'failed_at');
        if (state.wire.status === 'pending_new') this.route(state);
      },
    };
  }

  /** `DELETE /v2/orders/{id}`: 404 unknown, 422 not cancelable; otherwise canceled (or pending_cancel while cancels are held). */
  requestCancel(id: string): void {
    const state = this.orders.get(id);
    if (!state) return reject(errors.orderNotFound(id));
    if (!OPEN_STATUSES.has(state.wire.status) || state.wire.status === 'pending_cancel') reject(errors.notCancelable());
    if (this.holdCancels) {
      this.setStatus(state, 'pending_cancel');
      this.publish(state, 'pending_cancel');
      return;
    }
    this.finish(state, 'canceled', 'canceled_at');
  }

  /** `DELETE /v2/orders`: cancels every open order; the 207 body lists `{id, status, body}` per order. */
  cancelAll(): Array<{ id: string; status: number; body: WireOrder }> {
    const out: Array<{ id: string; status: number; body: WireOrder }> = [];
    for (const state of this.orders.values()) {
      if (!OPEN_STATUSES.has(state.wire.status) || state.wire.status === 'pending_cancel') continue;
      this.finish(state, 'canceled', 'canceled_at');
      out.push({ id: state.wire.id, status: 200, body: structuredClone(state.wire) });
    }
    return out;
  }

  // --- controls ------------------------------------------------------------

  rejectNext(spec: NextOrderRejection): void {
    this.nextRejection = spec;
  }

  /** While true, `DELETE /v2/orders/{id}` leaves the order `pending_cancel` until a control cancels or fills it. */
  setHoldCancels(hold: boolean): void {
    this.holdCancels = hold;
  }

  setCash(cash: string): void {
    this.cash = new Decimal(cash);
  }

  /** Fills an open order, fully by default; `qty` below the remainder makes a partial fill. */
  fill(id: string, options: { qty?: string | number; price?: string | number } = {}): WireOrder {
    const state = this.openState(id);
    const price =
      options.price !== undefined
        ? new Decimal(options.price)
        : state.wire.limit_price
          ? new Decimal(state.wire.limit_price)
          : this.marketPrice(state.wire.symbol, state.wire.side);
    if (!price) throw new Error(`Alpaca replay: no price to fill ${state.wire.symbol} at; pass one`);
    this.ensureTotal(state, price);
    const remaining = state.total!.minus(state.filled);
    const qty = options.qty !== undefined ? new Decimal(options.qty) : remaining;
    if (qty.lte(0) || qty.gt(remaining)) throw new Error(`Alpaca replay: fill qty ${qty.toFixed()} outside (0, ${remaining.toFixed()}]`);
    this.execute(state, qty, price);
    return structuredClone(state.wire);
  }

  /** Rejects an open order on the venue side (`rejected` event). */
  rejectOrder(id: string): WireOrder {
    this.finish(this.openState(id), 'rejected', 'failed_at');
    return this.order(id)!;
  }

  expire(id: string): WireOrder {
    this.finish(this.openState(id), 'expired', 'expired_at');
    return this.order(id)!;
  }

  /** Cancels an open (or pending_cancel) order on the venue side (`canceled` event). */
  cancel(id: string): WireOrder {
    this.finish(this.openState(id), 'canceled', 'canceled_at');
    return this.order(id)!;
  }

  /** Routes the orders accepted while the market was closed (in submission order). */
  marketOpened(): void {
    for (const state of [...this.orders.values()].sort((a, b) => a.seq - b.seq)) {
      if (state.wire.status === 'accepted') this.route(state);
    }
  }

  /** A price moved: resting limit orders that now cross fill. */
  priceMoved(symbol: string): void {
    if (!this.options.isOpen()) return;
    for (const state of [...this.orders.values()].sort((a, b) => a.seq - b.seq)) {
      if (state.wire.symbol === symbol && (state.wire.status === 'new' || state.wire.status === 'partially_filled')) this.autoFillIfMarketable(state);
    }
  }

  // --- internals -------------------------------------------------------------

  private openState(id: string): OrderState {
    const state = this.orders.get(id);
    if (!state) throw new Error(`Alpaca replay: no order ${id}`);
    if (!OPEN_STATUSES.has(state.wire.status)) throw new Error(`Alpaca replay: order ${id} is ${state.wire.status}, not open`);
    return state;
  }

  private route(state: OrderState): void {
    this.setStatus(state, 'new');
    this.publish(state, 'new');
    this.autoFillIfMarketable(state);
    const tif = state.wire.time_in_force;
    if ((tif === 'ioc' || tif === 'fok') && OPEN_STATUSES.has(state.wire.status)) this.finish(state, 'canceled', 'canceled_at');
  }

  private autoFillIfMarketable(state: OrderState): void {
    const prices = this.options.market.prices(state.wire.symbol);
    if (!prices) return;
    const buy = state.wire.side === 'buy';
    const quote = new Decimal(buy ? prices.ask : prices.bid);
    let fill: Decimal | undefined;
    if (state.wire.type === 'market' && this.autoFill.market) fill = quote;
    if (state.wire.type === 'limit' && this.autoFill.marketableLimit && state.wire.limit_price) {
      const limit = new Decimal(state.wire.limit_price);
      if (buy ? limit.gte(quote) : limit.lte(quote)) fill = quote;
    }
    if (!fill) return;
    this.ensureTotal(state, fill);
    this.execute(state, state.total!.minus(state.filled), fill);
  }

  private ensureTotal(state: OrderState, price: Decimal): void {
    if (state.total === undefined && state.notional) state.total = state.notional.div(price).toDecimalPlaces(FRACTION_DIGITS, Decimal.ROUND_DOWN);
  }

  private execute(state: OrderState, qty: Decimal, price: Decimal): void {
    const filled = state.filled.plus(qty);
    state.avgPrice = state.avgPrice.mul(state.filled).plus(price.mul(qty)).div(filled);
    state.filled = filled;
    const done = filled.gte(state.total!);
    const now = formatMicros(this.options.now());
    const wire = state.wire;
    wire.filled_qty = money(filled);
    wire.filled_avg_price = money(state.avgPrice);
    wire.status = done ? 'filled' : 'partially_filled';
    wire.updated_at = now;
    if (done) wire.filled_at = now;

    const position = this.positions.get(wire.symbol) ?? { qty: new Decimal(0), cost: new Decimal(0) };
    if (wire.side === 'buy') {
      position.cost = position.cost.plus(price.mul(qty));
      position.qty = position.qty.plus(qty);
      this.cash = this.cash.minus(price.mul(qty));
    } else {
      const avg = position.qty.isZero() ? price : position.cost.div(position.qty);
      position.cost = position.cost.minus(avg.mul(qty));
      position.qty = position.qty.minus(qty);
      this.cash = this.cash.plus(price.mul(qty));
    }
    if (position.qty.isZero()) this.positions.delete(wire.symbol);
    else this.positions.set(wire.symbol, position);
    this.publish(state, done ? 'fill' : 'partial_fill', {
      execution_id: randomUUID(),
      price: money(price),
      qty: money(qty),
      position_qty: money(position.qty),
    });
  }

  private finish(state: OrderState, status: OrderStatus, stamp: 'canceled_at' | 'expired_at' | 'failed_at'): void {
    this.setStatus(state, status);
    state.wire[stamp] = state.wire.updated_at;
    this.publish(state, status);
  }

  private setStatus(state: OrderState, status: OrderStatus): void {
    state.wire.status = status;
    state.wire.updated_at = formatMicros(this.options.now());
  }

  private publish(state: OrderState, event: string, extra: Partial<WireTradeUpdate> = {}): void {
    this.options.publish({ event, timestamp: state.wire.updated_at, order: structuredClone(state.wire), ...extra });
  }

  private marketPrice(symbol: string, side: string): Decimal | undefined {
    const prices = this.options.market.prices(symbol);
    if (!prices) return undefined;
    return new Decimal(side === 'buy' ? prices.ask : prices.bid);
  }

  private estimateCost(symbol: string, side: string, qty: Decimal | undefined, notional: Decimal | undefined, limit: Decimal | undefined): Decimal {
    if (notional) return notional;
    const price = limit ?? this.marketPrice(symbol, side) ?? new Decimal(0);
    return price.mul(qty ?? 0);
  }

  /** Cash minus what open buy orders may still spend. */
  private buyingPower(): Decimal {
    let reserved = new Decimal(0);
    for (const state of this.orders.values()) {
      if (state.wire.side !== 'buy' || !OPEN_STATUSES.has(state.wire.status)) continue;
      if (state.notional && state.total === undefined) {
        reserved = reserved.plus(state.notional);
        continue;
      }
      const remaining = (state.total ?? new Decimal(0)).minus(state.filled);
      const price = state.wire.limit_price ? new Decimal(state.wire.limit_price) : (this.marketPrice(state.wire.symbol, 'buy') ?? new Decimal(0));
      reserved = reserved.plus(remaining.mul(price));
    }
    return this.cash.minus(reserved);
  }

  private heldForOrders(symbol: string): Decimal {
    let held = new Decimal(0);
    for (const state of this.orders.values()) {
      if (state.wire.symbol !== symbol || state.wire.side !== 'sell' || !OPEN_STATUSES.has(state.wire.status)) continue;
      held = held.plus((state.total ?? new Decimal(0)).minus(state.filled));
    }
    return held;
  }
}
