import type { ExchangeBook, FakeAccount, FakeOrder } from './exchange-book.js';
import { wireDecimal } from './exchange-numbers.js';
import type { ReplayVenue } from './venue.js';

/**
 * The account side of POST /info, answered from the fake exchange's accounts. Shapes follow the
 * SDK's response types (@nktkas/hyperliquid 0.32.2 `src/api/info/_methods/*.ts`) and the ccxt
 * fixtures recorded from the venue (fetchOrder, fetchOpenOrders, fetchPositions, fetchBalance):
 * numbers as strings, oids and times as numbers.
 */
export const USER_INFO_TYPES = ['orderStatus', 'openOrders', 'frontendOpenOrders', 'clearinghouseState', 'userFills', 'userRole', 'extraAgents'] as const;

/** An order as orderStatus and frontendOpenOrders list it (the recorded key order). */
export function frontendOrder(o: FakeOrder) {
  return {
    coin: o.coin,
    side: o.side,
    limitPx: o.limitPx,
    sz: wireDecimal(o.sz),
    oid: o.oid,
    timestamp: o.timestamp,
    triggerCondition: 'N/A',
    isTrigger: false,
    triggerPx: '0.0',
    children: [],
    isPositionTpsl: false,
    reduceOnly: o.reduceOnly,
    orderType: 'Limit',
    origSz: o.origSz,
    tif: o.tif,
    cloid: o.cloid,
  };
}

/** An order as openOrders and the orderUpdates stream carry it. */
export function openOrder(o: FakeOrder) {
  return {
    coin: o.coin,
    side: o.side,
    limitPx: o.limitPx,
    sz: wireDecimal(o.sz),
    oid: o.oid,
    timestamp: o.timestamp,
    origSz: o.origSz,
    ...(o.cloid ? { cloid: o.cloid } : {}),
    ...(o.reduceOnly ? { reduceOnly: true } : {}),
  };
}

function clearinghouseState(book: ExchangeBook, venue: ReplayVenue, account: FakeAccount | undefined, now: number) {
  const zero = { accountValue: '0.0', totalNtlPos: '0.0', totalRawUsd: '0.0', totalMarginUsed: '0.0' };
  if (!account) return { marginSummary: zero, crossMarginSummary: zero, crossMaintenanceMarginUsed: '0.0', withdrawable: '0.0', assetPositions: [], time: now };
  const s = book.summary(account);
  const summary = {
    accountValue: wireDecimal(s.accountValue, 6),
    totalNtlPos: wireDecimal(s.ntlPos, 6),
    totalRawUsd: wireDecimal(s.rawUsd, 6),
    totalMarginUsed: wireDecimal(s.marginUsed, 6),
  };
  const assetPositions = [...account.positions]
    .filter(([, p]) => !p.szi.isZero())
    .map(([coin, p]) => {
      const asset = venue.asset(coin)!;
      const value = p.szi.times(venue.midOf(asset));
      const margin = value.abs().div(p.leverage);
      const upnl = value.minus(p.cost);
      return {
        type: 'oneWay',
        position: {
          coin,
          szi: wireDecimal(p.szi),
          leverage: { type: 'cross', value: p.leverage },
          entryPx: wireDecimal(p.cost.div(p.szi), 6),
          positionValue: wireDecimal(value.abs(), 6),
          unrealizedPnl: wireDecimal(upnl, 6),
          returnOnEquity: wireDecimal(margin.isZero() ? margin : upnl.div(margin), 8),
          liquidationPx: null,
          marginUsed: wireDecimal(margin, 6),
          maxLeverage: asset.maxLeverage,
          cumFunding: { allTime: '0.0', sinceOpen: '0.0', sinceChange: '0.0' },
        },
      };
    });
  return {
    marginSummary: summary,
    crossMarginSummary: summary,
    crossMaintenanceMarginUsed: wireDecimal(s.maintenance, 6),
    withdrawable: wireDecimal(s.withdrawable, 6),
    assetPositions,
    time: now,
  };
}

/** userRole: an account is a user, an approved agent names its account, anything else is missing. */
function userRole(book: ExchangeBook, user: string) {
  if (book.account(user)) return { role: 'user' };
  const master = book.accountOfSigner(user);
  return master ? { role: 'agent', data: { user: master.address } } : { role: 'missing' };
}

/** The answer of one account info request, or undefined when `body.user` is not an address (the caller rejects it). */
export function answerUserInfo(book: ExchangeBook, venue: ReplayVenue, type: string, body: Record<string, unknown>): unknown {
  const user = typeof body.user === 'string' && /^0x[0-9a-fA-F]{40}$/.test(body.user) ? body.user.toLowerCase() : undefined;
  if (!user) return undefined;
  const account = book.account(user);
  const now = venue.now();
  switch (type) {
    case 'orderStatus': {
      const id = body.oid;
      const order = account && (typeof id === 'number' || typeof id === 'string') ? book.findOrder(account, id) : undefined;
      if (!order) return { status: 'unknownOid' };
      return { status: 'order', order: { order: frontendOrder(order), status: order.status, statusTimestamp: order.statusTimestamp } };
    }
    case 'openOrders':
      return open(account).map(openOrder);
    case 'frontendOpenOrders':
      return open(account).map(frontendOrder);
    case 'clearinghouseState':
      return clearinghouseState(book, venue, account, now);
    case 'userFills':
      // Newest first, at most 2000 (docs).
      return (account?.fills ?? []).slice(-2000).reverse();
    case 'userRole':
      return userRole(book, user);
    case 'extraAgents':
      return [...(account?.agents ?? [])].map((address, i) => ({ address, name: `agent ${i + 1}`, validUntil: now + 180 * 86_400_000 }));
    default:
      return undefined;
  }
}

function open(account: FakeAccount | undefined): FakeOrder[] {
  return [...(account?.orders.values() ?? [])].filter((o) => o.status === 'open').reverse();
}
