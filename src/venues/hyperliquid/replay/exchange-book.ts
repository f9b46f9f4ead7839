import { randomBytes } from 'node:crypto';
import type { PerpAsset } from './catalogue.js';
import { D, validPerpPrice, validSize, wireDecimal, type Dec } from './exchange-numbers.js';
import type { ReplayVenue } from './venue.js';

/** One order of the `order` action as sent (`a` asset index, `b` buy, `p` price, `s` size, `r` reduce-only, `t` type, `c` cloid). */
export interface WireOrder {
  a: number;
  b: boolean;
  p: string;
  s: string;
  r: boolean;
  t: { limit?: { tif: string }; trigger?: unknown };
  c?: string;
}

/** An order the fake holds for an account (its record outlives the order: orderStatus answers it after it ends). */
export interface FakeOrder {
  oid: number;
  cloid: string | null;
  coin: string;
  asset: number;
  side: 'B' | 'A';
  limitPx: string;
  /** What is still unfilled (0 once filled; the unfilled rest of a cancelled one). */
  sz: Dec;
  origSz: string;
  timestamp: number;
  tif: 'Gtc' | 'Alo' | 'Ioc';
  reduceOnly: boolean;
  /** The venue's processing status: open, filled, canceled, iocCancelRejected, … */
  status: string;
  statusTimestamp: number;
}

/** A fill as userFills and the userFills stream carry it. */
export interface FakeFill {
  coin: string;
  px: string;
  sz: string;
  side: 'B' | 'A';
  time: number;
  startPosition: string;
  dir: string;
  closedPnl: string;
  hash: string;
  oid: number;
  crossed: boolean;
  fee: string;
  tid: number;
  cloid?: string;
  feeToken: string;
  twapId: null;
}

interface Position {
  /** Signed size (positive long). */
  szi: Dec;
  /** Signed entry notional (szi × entry price). */
  cost: Dec;
  leverage: number;
}

export interface FakeAccount {
  address: string;
  agents: Set<string>;
  /** Cash in USDC: deposits, realised PnL, less fees. */
  usdc: Dec;
  positions: Map<string, Position>;
  orders: Map<number, FakeOrder>;
  byCloid: Map<string, FakeOrder>;
  /** Newest last. */
  fills: FakeFill[];
}

/** What the book tells the streams: order updates and fills of an account (its address, lower-case). */
export interface BookListener {
  orderUpdates(user: string, orders: readonly FakeOrder[]): void;
  userFills(user: string, fills: readonly FakeFill[]): void;
}

/** A status of the `order` action's answer. */
export type OrderStatusAnswer =
  { resting: { oid: number; cloid?: string } } | { filled: { totalSz: string; avgPx: string; oid: number; cloid?: string } } | { error: string };

/** The venue's default leverage for a position opened without setting one: 20x cross, or the asset's maximum if lower. */
export const defaultLeverage = (asset: Pick<PerpAsset, 'maxLeverage'>) => Math.min(20, asset.maxLeverage);

/** The duplicate-cloid refusal. Not recorded from the venue (no capture exists): the fake's wording. */
export const DUPLICATE_CLOID = 'Order has a cloid that was already used.';

/**
 * The accounts of the fake exchange: orders per account, matched against the fake venue's book
 * (the book is not consumed: it is the data fake's, synthesized around the mid), fills with the
 * venue's fees, positions with their margin. Order rules and refusals as Hyperliquid words them
 * (docs "Error responses"; `asset=<index>` appended as the venue does for account-side refusals).
 */
export class ExchangeBook {
  readonly accounts = new Map<string, FakeAccount>();
  private nextOid = 1_000_000;
  private nextTid = 1;
  listener: BookListener | undefined;

  constructor(
    private readonly venue: ReplayVenue,
    readonly fees: { taker: string; maker: string },
  ) {}

  addAccount(address: string, agents: readonly string[], usdc: string): FakeAccount {
    const account: FakeAccount = {
      address: address.toLowerCase(),
      agents: new Set(agents.map((a) => a.toLowerCase())),
      usdc: new D(usdc),
      positions: new Map(),
      orders: new Map(),
      byCloid: new Map(),
      fills: [],
    };
    this.accounts.set(account.address, account);
    return account;
  }

  /** The account a signer acts for: its own, or the one that approved it as an agent. */
  accountOfSigner(signer: string): FakeAccount | undefined {
    const s = signer.toLowerCase();
    return this.accounts.get(s) ?? [...this.accounts.values()].find((a) => a.agents.has(s));
  }

  account(user: string): FakeAccount | undefined {
    return this.accounts.get(user.toLowerCase());
  }

  findOrder(account: FakeAccount, id: number | string): FakeOrder | undefined {
    return typeof id === 'number' ? account.orders.get(id) : account.byCloid.get(id.toLowerCase());
  }

  private mark(asset: PerpAsset): Dec {
    return new D(this.venue.midOf(asset));
  }

  private assetByName(coin: string): PerpAsset {
    const asset = this.venue.asset(coin);
    if (!asset) throw new Error(`no asset ${coin}`);
    return asset;
  }

  // ---- margin -------------------------------------------------------------------------------

  /** The size of `order` that would add to the position rather than reduce it. */
  private increase(account: FakeAccount, coin: string, side: 'B' | 'A', size: Dec): Dec {
    const szi = account.positions.get(coin)?.szi ?? new D(0);
    const after = szi.plus(side === 'B' ? size : size.neg());
    return D.max(0, after.abs().minus(szi.abs()));
  }

  private ordersMargin(account: FakeAccount): Dec {
    let total = new D(0);
    for (const o of account.orders.values()) {
      if (o.status !== 'open') continue;
      const asset = this.assetByName(o.coin);
      total = total.plus(this.increase(account, o.coin, o.side, o.sz).times(o.limitPx).div(defaultLeverage(asset)));
    }
    return total;
  }

  /** accountValue, margin used and what is free to withdraw (or to back new orders). */
  summary(account: FakeAccount): { accountValue: Dec; rawUsd: Dec; ntlPos: Dec; marginUsed: Dec; maintenance: Dec; withdrawable: Dec } {
    let upnl = new D(0);
    let cost = new D(0);
    let ntlPos = new D(0);
    let marginUsed = new D(0);
    let maintenance = new D(0);
    for (const [coin, p] of account.positions) {
      if (p.szi.isZero()) continue;
      const asset = this.assetByName(coin);
      const value = p.szi.times(this.mark(asset));
      upnl = upnl.plus(value.minus(p.cost));
      cost = cost.plus(p.cost);
      ntlPos = ntlPos.plus(value.abs());
      marginUsed = marginUsed.plus(value.abs().div(p.leverage));
      maintenance = maintenance.plus(value.abs().div(2 * asset.maxLeverage));
    }
    const accountValue = account.usdc.plus(upnl);
    const withdrawable = D.max(0, accountValue.minus(marginUsed).minus(this.ordersMargin(account)));
    return { accountValue, rawUsd: account.usdc.minus(cost), ntlPos, marginUsed, maintenance, withdrawable };
  }

  // ---- orders -------------------------------------------------------------------------------

  /**
   * Places one order for `account`: checked (price, size, minimum value, cloid, post-only, margin),
   * matched against the book as a taker, the rest resting (Gtc, Alo) or cancelled (Ioc).
   */
  place(account: FakeAccount, wire: WireOrder, now: number, rejectWith?: string): OrderStatusAnswer {
    const asset = this.venue.assets[wire.a];
    if (!asset || asset.isDelisted) return { error: `Asset ${wire.a} is not a listed perpetual.` };
    const tif = wire.t.limit?.tif;
    if (tif !== 'Gtc' && tif !== 'Alo' && tif !== 'Ioc') return { error: 'Order type refused: this venue takes limit orders (Gtc, Alo, Ioc) only.' };
    if (!validPerpPrice(wire.p, asset.szDecimals)) return { error: 'Order has invalid price.' };
    if (!validSize(wire.s, asset.szDecimals)) return { error: 'Order has invalid size.' };
    const cloid = wire.c?.toLowerCase() ?? null;
    if (cloid && account.byCloid.has(cloid)) return { error: DUPLICATE_CLOID };
    const size = new D(wire.s);
    const limit = new D(wire.p);
    const tag = ` asset=${wire.a}`;
    if (size.times(limit).lt(10)) return { error: `Order must have minimum value of $10.${tag}` };
    if (rejectWith) return { error: rejectWith };
    const side = wire.b ? 'B' : 'A';
    const [bids, asks] = this.venue.book(asset);
    const opposite = side === 'B' ? asks : bids;
    const crosses = (px: string) => (side === 'B' ? new D(px).lte(limit) : new D(px).gte(limit));
    if (tif === 'Alo' && opposite[0] && crosses(opposite[0].px)) {
      return { error: `Post only order would have immediately matched, bbo was ${bids[0]?.px ?? '0'}@${asks[0]?.px ?? '0'}.${tag}` };
    }
    const needed = this.increase(account, asset.name, side, size).times(limit).div(this.leverageOf(account, asset));
    if (this.summary(account).withdrawable.lt(needed)) return { error: `Insufficient margin to place order.${tag}` };

    // Taker fills, level by level, at the book's prices.
    const takes: { px: string; sz: Dec }[] = [];
    let left = size;
    for (const level of opposite) {
      if (left.isZero() || !crosses(level.px)) break;
      const sz = D.min(left, new D(level.sz));
      takes.push({ px: level.px, sz });
      left = left.minus(sz);
    }
    const order: FakeOrder = {
      oid: this.nextOid++,
      cloid,
      coin: asset.name,
      asset: wire.a,
      side,
      limitPx: wire.p,
      sz: size,
      origSz: wire.s,
      timestamp: now,
      tif,
      reduceOnly: wire.r,
      status: 'open',
      statusTimestamp: now,
    };
    account.orders.set(order.oid, order);
    if (cloid) account.byCloid.set(cloid, order);
    const fills = takes.map((t) => this.fill(account, order, t.px, t.sz, true, now));
    const filled = size.minus(order.sz);
    if (order.sz.gt(0) && tif === 'Ioc') order.status = filled.isZero() ? 'iocCancelRejected' : 'canceled';
    else if (order.sz.isZero()) order.status = 'filled';
    this.listener?.orderUpdates(account.address, [order]);
    if (fills.length > 0) this.listener?.userFills(account.address, fills);
    if (order.status === 'iocCancelRejected') return { error: `Order could not immediately match against any resting orders.${tag}` };
    const ids = { oid: order.oid, ...(cloid ? { cloid } : {}) };
    if (order.status === 'open') return { resting: ids };
    const notional = fills.reduce((sum, f) => sum.plus(new D(f.px).times(f.sz)), new D(0));
    return { filled: { totalSz: wireDecimal(filled), avgPx: wireDecimal(notional.div(filled), 6), ...ids } };
  }

  private leverageOf(account: FakeAccount, asset: PerpAsset): number {
    return account.positions.get(asset.name)?.leverage ?? defaultLeverage(asset);
  }

  /** One fill of `order` at `px`: the position, cash and fee move; the order's unfilled size shrinks. */
  private fill(account: FakeAccount, order: FakeOrder, px: string, sz: Dec, crossed: boolean, now: number): FakeFill {
    const asset = this.assetByName(order.coin);
    const price = new D(px);
    const fee = price
      .times(sz)
      .times(crossed ? this.fees.taker : this.fees.maker)
      .toDecimalPlaces(6, D.ROUND_HALF_EVEN);
    const position = account.positions.get(order.coin) ?? { szi: new D(0), cost: new D(0), leverage: defaultLeverage(asset) };
    const start = position.szi;
    const delta = order.side === 'B' ? sz : sz.neg();
    let closedPnl = new D(0);
    if (start.isZero() || start.isPos() === delta.isPos()) {
      position.cost = position.cost.plus(delta.times(price));
    } else {
      const closing = D.min(sz, start.abs());
      const entry = position.cost.div(start);
      const closedSigned = start.isPos() ? closing : closing.neg();
      closedPnl = closedSigned.times(price.minus(entry));
      position.cost = position.cost.minus(closedSigned.times(entry));
      const opening = sz.minus(closing);
      if (opening.gt(0)) position.cost = (order.side === 'B' ? opening : opening.neg()).times(price);
    }
    position.szi = start.plus(delta);
    if (position.szi.isZero()) position.cost = new D(0);
    account.positions.set(order.coin, position);
    account.usdc = account.usdc.plus(closedPnl).minus(fee);
    order.sz = order.sz.minus(sz);
    order.statusTimestamp = now;
    const fill: FakeFill = {
      coin: order.coin,
      px,
      sz: wireDecimal(sz),
      side: order.side,
      time: now,
      startPosition: wireDecimal(start),
      dir: direction(start, delta),
      closedPnl: wireDecimal(closedPnl, 6),
      hash: `0x${randomBytes(32).toString('hex')}`,
      oid: order.oid,
      crossed,
      fee: wireDecimal(fee, 6),
      tid: this.nextTid++,
      ...(order.cloid ? { cloid: order.cloid } : {}),
      feeToken: 'USDC',
      twapId: null,
    };
    account.fills.push(fill);
    return fill;
  }

  /** Another trader crosses a resting order: `size` more of it (all that is left by default) fills at its limit price (or `px`), as a maker. */
  fillResting(account: FakeAccount, order: FakeOrder, now: number, size?: string, px?: string): FakeFill {
    if (order.status !== 'open') throw new Error(`order ${order.oid} is ${order.status}, not open`);
    const sz = size === undefined ? order.sz : new D(size);
    if (sz.lte(0) || sz.gt(order.sz)) throw new Error(`order ${order.oid} has ${wireDecimal(order.sz)} left, not ${size}`);
    const fill = this.fill(account, order, px ?? order.limitPx, sz, false, now);
    if (order.sz.isZero()) order.status = 'filled';
    this.listener?.userFills(account.address, [fill]);
    this.listener?.orderUpdates(account.address, [order]);
    return fill;
  }

  /** Cancels a resting order of `asset` by oid or cloid: "success", or the venue's MissingOrder refusal. */
  cancel(account: FakeAccount, asset: number, id: number | string, now: number): 'success' | { error: string } {
    const order = this.findOrder(account, id);
    if (!order || order.asset !== asset || order.status !== 'open') {
      return { error: `Order was never placed, already canceled, or filled. asset=${asset}` };
    }
    order.status = 'canceled';
    order.statusTimestamp = now;
    this.listener?.orderUpdates(account.address, [order]);
    return 'success';
  }
}

function direction(start: Dec, delta: Dec): string {
  const after = start.plus(delta);
  if (start.isZero()) return delta.isPos() ? 'Open Long' : 'Open Short';
  if (start.isPos() && after.isNeg()) return 'Long > Short';
  if (start.isNeg() && after.isPos()) return 'Short > Long';
  if (start.isPos()) return delta.isPos() ? 'Open Long' : 'Close Long';
  return delta.isNeg() ? 'Open Short' : 'Close Short';
}
