import { D, wireDecimal } from './exchange-numbers.js';
import type { FakeFill } from './exchange-book.js';
import type { FakeExchange } from './exchange.js';
import type { ReplayStreams } from './streams.js';

/** An order as a test sees it at the fake exchange. */
export interface FakeOrderView {
  oid: number;
  cloid: string | null;
  coin: string;
  side: 'B' | 'A';
  limitPx: string;
  /** Unfilled size. */
  sz: string;
  origSz: string;
  tif: string;
  status: string;
}

/** The test-side handle on the fake exchange (started with `trading`); each throws without it. */
export interface ExchangeControls {
  /**
   * Another trader crosses a resting order: `size` more of it (all that is left by default)
   * fills at its limit price (or `px`) as a maker; the fill and the order's update are pushed.
   */
  fillOrder(user: string, id: number | string, options?: { size?: string; px?: string }): FakeFill;
  /** The next POST /exchange gets no answer: `placed` (default) acts on it first, `lost` never sees it. */
  hangNextExchange(kind?: 'placed' | 'lost'): void;
  /** The next `order` action's orders are refused with `message` (after the venue's price and size checks). */
  rejectNextOrder(message: string): void;
  /** Tears down every connection holding a user stream (orderUpdates, userFills); the next `refuseReconnects` upgrades are refused. */
  dropUserStreams(options?: { refuseReconnects?: number }): number;
  /** An account's orders, oldest first. */
  orders(user: string): FakeOrderView[];
  /** Sets an account's USDC (its cash, before unrealised PnL). */
  setUsdc(user: string, amount: string): void;
}

export function createExchangeControls(exchange: FakeExchange | undefined, streams: ReplayStreams): ExchangeControls {
  const fake = () => {
    if (!exchange) throw new Error('the fake exchange is off: start the replay with `trading`');
    return exchange;
  };
  const account = (user: string) => {
    const found = fake().book.account(user);
    if (!found) throw new Error(`no account ${user} at the fake exchange`);
    return found;
  };
  return {
    fillOrder: (user, id, options = {}) => {
      const a = account(user);
      const order = fake().book.findOrder(a, id);
      if (!order) throw new Error(`no order ${id} of ${user}`);
      return fake().book.fillResting(a, order, fake().now(), options.size, options.px);
    },
    hangNextExchange: (kind = 'placed') => fake().hangNext(kind),
    rejectNextOrder: (message) => fake().rejectNextOrder(message),
    dropUserStreams: (options = {}) => {
      if (options.refuseReconnects) streams.refuseConnections(options.refuseReconnects);
      return streams.dropUserStreams();
    },
    orders: (user) =>
      [...account(user).orders.values()].map((o) => ({
        oid: o.oid,
        cloid: o.cloid,
        coin: o.coin,
        side: o.side,
        limitPx: o.limitPx,
        sz: wireDecimal(o.sz),
        origSz: o.origSz,
        tif: o.tif,
        status: o.status,
      })),
    setUsdc: (user, amount) => {
      account(user).usdc = new D(amount);
    },
  };
}
