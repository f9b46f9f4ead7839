import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { GatewayError } from '../../src/errors/gateway-error.js';
import type { ExecutionInstruction } from '../../src/execution/instruction.js';
import type { Quote, VenueContext } from '../../src/execution/venues/execution-venue.js';
import { VenueOutcomeUnknown, VenueRefusal, type RoutedOrder, type RoutedOrderState } from '../../src/execution/venues/routed-venue.js';
import { MarketDirectory } from '../../src/market-data/market-directory.js';
import { MarketReader } from '../../src/market-data/market-reader.js';
import { MemorySnapshotCache } from '../../src/stores/memory/memory-snapshot-cache.js';
import type { UpstreamObserver } from '../../src/sources/upstream-observer.js';
import { equityMarket, equityQuote } from '../../src/venues/alpaca/alpaca-quotes.js';
import { alpacaSettings } from '../../src/venues/alpaca/alpaca-settings.js';
import { AlpacaTrading } from '../../src/venues/alpaca/alpaca-trading.js';
import { alpaca } from '../../src/venues/alpaca/alpaca-venue.js';
import { startAlpacaReplay, type AlpacaReplay } from '../../src/venues/alpaca/replay/alpaca-replay.js';
import { loopbackOnly } from '../support/loopback-only.js';
import { eventually } from '../support/venue-gateway.js';

/**
 * Alpaca paper trading as a routed venue, through the real SDK against the local wire fake of
 * Alpaca's trading API and trade_updates stream: orders placed, streamed, looked up and
 * cancelled by client order id; Alpaca's refusals as public codes; an answer lost after sending
 * never places twice; the stream's drops; the account and readiness, never a key.
 */
const KEY_ID = 'PKTRADINGKEY00001';
const SECRET = 'trading-secret-never-to-be-shown';
const ACCOUNT = 'acct-1';
loopbackOnly();

const env = (fake: AlpacaReplay, extra: Record<string, string> = {}) => ({
  ALPACA_KEY_ID: KEY_ID,
  ALPACA_SECRET_KEY: SECRET,
  ALPACA_TRADING_URL: fake.urls.trading,
  ALPACA_DATA_URL: fake.urls.data,
  ALPACA_TIMEOUT_MS: '5000',
  ALPACA_ORDERS: 'paper',
  ALPACA_ORDERS_ACCOUNT: ACCOUNT,
  ...extra,
});

let fake: AlpacaReplay;
let venue: AlpacaTrading;
let cache: MemorySnapshotCache;
let directory: MarketDirectory;
const requests: string[] = [];
const reconnects: string[] = [];
const observer: UpstreamObserver = {
  request: (v, type, outcome) => void requests.push(`${v} ${type} ${outcome}`),
  reconnect: (v) => void reconnects.push(v),
  ingested: () => undefined,
};
const stops: (() => void)[] = [];

function tradingVenue(extra: Record<string, string> = {}): AlpacaTrading {
  const settings = alpacaSettings(env(fake, extra))!;
  return new AlpacaTrading('alpaca', settings, settings.orders!.account, { directory, logger: pino({ level: 'silent' }), upstream: observer });
}

/** The venue's top of book as the data plane caches it (the fake's quotes: a cent either side of the last trade). */
async function book(symbol: string, bid: string, ask: string, sessionOpen: boolean | null = true): Promise<void> {
  const now = Date.now();
  const market = directory.resolve(`${symbol}-USD`)!;
  await cache.putOrderBook({
    marketId: market.id,
    bids: [{ price: bid, size: '100', cumulativeSize: '100' }],
    asks: [{ price: ask, size: '100', cumulativeSize: '100' }],
    sourceTime: now,
    receivedAt: now,
  });
  await cache.putMarket({ ...equityQuote(market, { trade: { price: ask, time: now } }, sessionOpen)!, receivedAt: now });
}

beforeEach(async () => {
  fake = await startAlpacaReplay({ keyId: KEY_ID, secret: SECRET });
  directory = new MarketDirectory([equityMarket('AAPL', 'alpaca', {}), equityMarket('ZVZZT', 'alpaca', {})]);
  cache = new MemorySnapshotCache();
  await book('AAPL', '161.19', '161.2');
  await book('ZVZZT', '9.99', '10.01');
  venue = tradingVenue();
  requests.length = 0;
  reconnects.length = 0;
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  expect(fake.controls.http.refusedUrls()).toEqual([]);
  await fake.close();
});

const ctx = (accountId = ACCOUNT): VenueContext => ({
  reader: new MarketReader(directory, cache, systemClock),
  cache,
  now: Date.now(),
  balances: {},
  accountId,
});

const instruction = (referenceId: string, overrides: Partial<ExecutionInstruction> = {}): ExecutionInstruction => ({
  protocol: 'alpaca',
  action: 'place_order',
  assetIn: { token: 'AAPL', amount: '2' },
  metadata: { side: 'buy', type: 'market' },
  referenceId,
  ...overrides,
});

const limitBuy = (referenceId: string, amount = '10', price = '150', timeInForce: 'gtc' | 'ioc' | 'alo' = 'gtc') =>
  instruction(referenceId, { assetIn: { token: 'AAPL', amount }, metadata: { side: 'buy', type: 'limit', price, timeInForce } });

/** The order the execution core sends for an instruction (as venue-submission builds it), priced by the venue unless `quote` is given. */
async function routed(i: ExecutionInstruction, quote?: Quote): Promise<RoutedOrder> {
  const type = i.metadata?.type ?? 'market';
  return {
    clientOrderId: venue.clientOrderIdFor(ACCOUNT, i.referenceId),
    accountId: ACCOUNT,
    market: venue.marketFor(i),
    side: i.metadata?.side ?? 'buy',
    amount: i.assetIn.amount,
    type,
    price: type === 'limit' ? (i.metadata?.price ?? null) : null,
    timeInForce: i.metadata?.timeInForce ?? (type === 'limit' ? 'gtc' : 'ioc'),
    instruction: i,
    quote: quote ?? (await venue.quote(i, ctx())),
  };
}

async function refusal(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a refusal');
}

/** Follows the venue's order stream into `updates`, once it listens. */
async function following(): Promise<RoutedOrderState[]> {
  const updates: RoutedOrderState[] = [];
  stops.push(venue.follow((s) => updates.push(s)));
  await eventually(() => venue.followAlive(), 5_000, 'the trade_updates stream');
  return updates;
}

const fakeOrder = (clientOrderId: string) => fake.controls.orders.all().find((o) => o.client_order_id === clientOrderId)!;

describe('orders at Alpaca paper trading', () => {
  it('a market order is quoted without the paper ledger, placed DAY under its client order id, and fills: its answer, stream and look-up agree', async () => {
    const updates = await following();
    const i = instruction('mkt-1');
    const quote = await venue.quote(i, ctx());
    expect(quote).toMatchObject({ marketId: 'AAPL-USD', side: 'buy', price: '161.20', amount: '2', fee: '0', feeToken: 'USD', changes: {}, mayGoNegative: [] });
    expect(quote).toMatchObject({ insufficient: null, tradable: { ok: true } });
    expect(quote.expectedFill).toBeUndefined();

    const order = await routed(i, quote);
    expect(order.clientOrderId).toMatch(/^gw-[A-Za-z0-9_-]{43}$/);
    expect(order.clientOrderId.length).toBeLessThanOrEqual(48);
    expect(venue.clientOrderIdFor(ACCOUNT, 'mkt-1')).toBe(order.clientOrderId);
    expect(venue.clientOrderIdFor('acct-2', 'mkt-1')).not.toBe(order.clientOrderId);

    const placed = await venue.place(order);
    expect(placed).toMatchObject({ clientOrderId: order.clientOrderId, status: 'open', filledAmount: '0', fee: '0', feeToken: 'USD' });
    expect(placed.venueOrderId).toBe(fakeOrder(order.clientOrderId).id);
    const [sent] = fake.controls.http.requests({ method: 'POST', path: '/v2/orders' });
    expect(sent!.body).toEqual({ symbol: 'AAPL', side: 'buy', type: 'market', time_in_force: 'day', qty: '2', client_order_id: order.clientOrderId });

    const filled = await eventually(() => updates.find((u) => u.status === 'filled'), 5_000, 'the fill on the stream');
    expect(filled).toMatchObject({ clientOrderId: order.clientOrderId, filledAmount: '2', averagePrice: '161.2', venueOrderId: placed.venueOrderId });
    expect(await venue.lookup(order.clientOrderId, order.market)).toMatchObject({ status: 'filled', filledAmount: '2', averagePrice: '161.2' });
    expect(await venue.lookup(venue.clientOrderIdFor(ACCOUNT, 'never-sent'), order.market)).toBeNull();
    expect(requests).toContain('alpaca order 200');
  });

  it('a limit order rests (open), fills in part, then is cancelled with what filled; a second cancel answers the same state', async () => {
    const updates = await following();
    const order = await routed(limitBuy('lmt-1'));
    const placed = await venue.place(order);
    expect(placed).toMatchObject({ status: 'open', filledAmount: '0' });
    expect(fake.controls.http.requests({ method: 'POST' })[0]!.body).toMatchObject({ type: 'limit', limit_price: '150', time_in_force: 'gtc', qty: '10' });
    await eventually(() => updates.some((u) => u.clientOrderId === order.clientOrderId && u.status === 'open'), 5_000, 'the new event');

    fake.controls.orders.fill(placed.venueOrderId!, { qty: 4 });
    const partial = await eventually(() => updates.find((u) => u.status === 'partially_filled'), 5_000, 'the partial fill');
    expect(partial).toMatchObject({ filledAmount: '4', averagePrice: '150' });
    expect(await venue.lookup(order.clientOrderId, order.market)).toMatchObject({ status: 'partially_filled', filledAmount: '4' });

    const cancelled = await venue.cancel(order.clientOrderId, order.market);
    expect(cancelled).toMatchObject({ status: 'cancelled', filledAmount: '4', averagePrice: '150', reason: 'Cancelled at Alpaca.' });
    expect(fake.controls.http.requests({ method: 'DELETE' })[0]!.path).toBe(`/v2/orders/${placed.venueOrderId}`);
    await eventually(() => updates.some((u) => u.status === 'cancelled'), 5_000, 'the cancel on the stream');
    // Not cancelable any more (422 at Alpaca): the order's state is the answer.
    expect(await venue.cancel(order.clientOrderId, order.market)).toMatchObject({ status: 'cancelled', filledAmount: '4' });
    expect(await refusal(venue.cancel(venue.clientOrderIdFor(ACCOUNT, 'nothing'), order.market))).toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('a cancel that loses to a fill answers filled; an ioc limit that does not cross is cancelled by Alpaca', async () => {
    const order = await routed(limitBuy('lmt-race', '3'));
    const placed = await venue.place(order);
    fake.controls.orders.holdCancels(true);
    const cancelling = venue.cancel(order.clientOrderId, order.market);
    await eventually(() => fakeOrder(order.clientOrderId).status === 'pending_cancel', 5_000, 'the pending cancel');
    fake.controls.orders.fill(placed.venueOrderId!);
    expect(await cancelling).toMatchObject({ status: 'filled', filledAmount: '3' });

    const ioc = limitBuy('lmt-ioc', '1', '150', 'ioc');
    const iocQuote = await venue.quote(ioc, ctx());
    // Only an ioc order is simulated against the book: a limit below the ask fills nothing.
    expect(iocQuote.expectedFill).toMatchObject({ state: 'rejected', filledAmount: '0' });
    const iocOrder = await routed(ioc, iocQuote);
    await venue.place(iocOrder);
    expect(fake.controls.http.requests({ method: 'POST' }).at(-1)!.body).toMatchObject({ time_in_force: 'ioc' });
    await eventually(async () => (await venue.lookup(iocOrder.clientOrderId, iocOrder.market))?.status === 'cancelled', 5_000, 'the ioc cancel');
  });
});

describe('what Alpaca refuses, and what the gateway refuses first', () => {
  it('insufficient buying power: INSUFFICIENT_BALANCE at preview (quote.insufficient) and from Alpaca with its words; nothing placed', async () => {
    fake.controls.orders.setCash('100');
    const i = instruction('poor-1');
    const quote = await venue.quote(i, ctx());
    expect(quote.insufficient).toBe('Alpaca buying power is 100 USD; the order needs 322.40 USD.');
    const err = await refusal(venue.place(await routed(i, quote)));
    expect(err).toBeInstanceOf(VenueRefusal);
    expect(err).toMatchObject({ code: 'INSUFFICIENT_BALANCE', reason: 'insufficient buying power' });
    const sell = instruction('short-1', { metadata: { side: 'sell', type: 'market' } });
    expect((await venue.quote(sell, ctx())).insufficient).toBe('Alpaca holds 0 AAPL free to sell and this account may not short; the order sells 2.');
    expect(await refusal(venue.place(await routed(sell)))).toMatchObject({ code: 'INSUFFICIENT_BALANCE', reason: 'account is not allowed to short' });
    expect(fake.controls.orders.all()).toEqual([]);
  });

  it("Alpaca's rules: a 422 is INVALID_REQUEST with its words; fractional and post-only orders are refused at preview, and never sent", async () => {
    // Whole shares only where the asset is not fractionable: refused at preview naming the field …
    const odd = instruction('frac-1', { assetIn: { token: 'ZVZZT', amount: '1.5' } });
    const previewed = await refusal(venue.quote(odd, ctx()));
    expect(previewed).toBeInstanceOf(GatewayError);
    expect(previewed).toMatchObject({ status: 400, message: "'assetIn.amount' must be whole shares: ZVZZT is not fractionable at Alpaca" });
    // … and by Alpaca (422) if it ever got there.
    const sent = await refusal(venue.place(await routed(odd, await venue.quote(instruction('q'), ctx()))));
    expect(sent).toMatchObject({ code: 'INVALID_REQUEST', reason: 'asset ZVZZT is not fractionable' });

    // Fractional AAPL: a market order (DAY) is fine; a limit order (gtc or ioc) is not.
    expect((await venue.quote(instruction('frac-2', { assetIn: { token: 'AAPL', amount: '0.5' } }), ctx())).amount).toBe('0.5');
    expect(await refusal(venue.quote(limitBuy('frac-3', '0.5'), ctx()))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^'assetIn.amount' is refused: a fractional quantity must be a market order/),
    });
    expect(await refusal(venue.quote(limitBuy('alo-1', '1', '150', 'alo'), ctx()))).toMatchObject({
      status: 400,
      message: "'metadata.timeInForce' is refused: Alpaca has no post-only orders (timeInForce alo): use gtc or ioc",
    });
    const placedBefore = fake.controls.http.requests({ method: 'POST' }).length;
    const aloOrder = { ...(await routed(limitBuy('alo-2'))), timeInForce: 'alo' as const };
    expect(await refusal(venue.place(aloOrder))).toMatchObject({ code: 'INVALID_REQUEST', reason: expect.stringMatching(/^Alpaca has no post-only orders/) });
    const fractionalLimit = { ...(await routed(limitBuy('frac-4'))), amount: '0.5' };
    expect(await refusal(venue.place(fractionalLimit))).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(fake.controls.http.requests({ method: 'POST' }).length).toBe(placedBefore);
  });

  it('429 is VENUE_UNHEALTHY, retryable after its Retry-After; market closed is VENUE_UNHEALTHY, and the clock closes the preview', async () => {
    fake.controls.http.rateLimit({ api: 'trading', method: 'POST', path: '/v2/orders', retryAfterSeconds: 7 });
    const limited = await refusal(venue.place(await routed(instruction('busy-1'))));
    expect(limited).toMatchObject({ code: 'VENUE_UNHEALTHY', options: { retryable: true, retryAfterSeconds: 7 } });
    expect(limited.reason).toMatch(/rate limit/);

    fake.controls.orders.rejectNext({ reason: 'market_closed' });
    expect(await refusal(venue.place(await routed(instruction('closed-1'))))).toMatchObject({
      code: 'VENUE_UNHEALTHY',
      reason: 'market is closed',
      options: { retryable: true },
    });
    expect(fake.controls.orders.all()).toEqual([]);

    // Out of session (the market clock, as the data venue caches it): not tradable at preview.
    await book('AAPL', '161.19', '161.2', false);
    expect((await venue.quote(instruction('closed-2'), ctx())).tradable).toMatchObject({ ok: false, reason: expect.stringMatching(/regular session/) });
  });

  it('refuses another gateway account: POLICY_DENIED at preview, and at the order', async () => {
    expect(venue.boundAccount).toBe(ACCOUNT);
    expect(await refusal(venue.quote(instruction('other-1'), ctx('acct-2')))).toMatchObject({
      status: 403,
      code: 'POLICY_DENIED',
      options: { details: { check: 'venue_account' } },
    });
    const order = { ...(await routed(instruction('other-2'))), accountId: 'acct-2' };
    expect(await refusal(venue.place(order))).toMatchObject({ code: 'POLICY_DENIED' });
    expect(fake.controls.http.requests({ method: 'POST' })).toEqual([]);
  });
});

describe('no answer, and never twice', () => {
  it('a timeout after sending is an unknown outcome; the look-up finds the order; placing it again answers its state, never a second order', async () => {
    const order = await routed(limitBuy('lost-1'));
    fake.controls.http.acceptOrderThenHang();
    const err = await refusal(tradingVenue({ ALPACA_TIMEOUT_MS: '600' }).place(order));
    expect(err).toBeInstanceOf(VenueOutcomeUnknown);
    expect(err.reason).toBe('no answer from Alpaca within the timeout');
    expect(await venue.lookup(order.clientOrderId, order.market)).toMatchObject({ status: 'open', clientOrderId: order.clientOrderId });

    // The same referenceId again: Alpaca refuses the duplicate client order id and the venue answers the order it holds.
    const again = await venue.place(order);
    expect(again).toMatchObject({ status: 'open', venueOrderId: fakeOrder(order.clientOrderId).id });
    expect(fake.controls.orders.all().filter((o) => o.client_order_id === order.clientOrderId)).toHaveLength(1);
    expect(fake.controls.http.requests({ method: 'POST' })).toHaveLength(2);
  });

  it('a 5xx or a cut connection is an unknown outcome too (the look-up says whether it landed)', async () => {
    fake.controls.http.serverError({ api: 'trading', method: 'POST', path: '/v2/orders' });
    const order = await routed(instruction('err-1'));
    expect(await refusal(venue.place(order))).toMatchObject({ name: 'VenueOutcomeUnknown', reason: 'Alpaca answered 500; the order may have been placed' });
    expect(await venue.lookup(order.clientOrderId, order.market)).toBeNull();
    fake.controls.http.resetConnection({ api: 'trading', method: 'POST', path: '/v2/orders' });
    expect(await refusal(venue.place(order))).toMatchObject({ name: 'VenueOutcomeUnknown', reason: 'the connection to Alpaca failed without an answer' });
    // Placed for real on the third try, once.
    expect(await venue.place(order)).toMatchObject({ status: 'open' });
    expect(await venue.place(order)).toMatchObject({ status: expect.stringMatching(/open|filled/) });
    expect(fake.controls.orders.all()).toHaveLength(1);
  });
});

describe('the order stream', () => {
  it('a dropped stream is not alive until it listens again; an update lost in the drop is looked up after the reconnect', async () => {
    const updates = await following();
    const order = await routed(limitBuy('drop-1', '2'));
    const placed = await venue.place(order);
    await eventually(() => updates.some((u) => u.status === 'open'), 5_000, 'the new event');

    fake.controls.streams.dropTradingBeforeNextEvent();
    fake.controls.orders.fill(placed.venueOrderId!);
    await eventually(() => !venue.followAlive(), 5_000, 'the stream down');
    expect(updates.some((u) => u.status === 'filled')).toBe(false);
    await eventually(() => venue.followAlive(), 10_000, 'the stream back');
    const filled = await eventually(() => updates.find((u) => u.status === 'filled'), 5_000, 'the lost fill, looked up');
    expect(filled).toMatchObject({ clientOrderId: order.clientOrderId, filledAmount: '2' });
    expect(reconnects).toEqual(['alpaca']);

    // Stopping the last follower closes the stream.
    stops.splice(0).forEach((stop) => stop());
    expect(venue.followAlive()).toBe(false);
    await eventually(() => fake.controls.streams.connections().trading === 0, 5_000, 'the stream closed');
  });

  it('keys Alpaca refuses end the stream: never alive (the order follower looks orders up)', async () => {
    const refused = tradingVenue({ ALPACA_SECRET_KEY: 'wrong-secret' });
    stops.push(refused.follow(() => undefined));
    await eventually(
      () => fake.controls.streams.received().trading.length > 0 && fake.controls.streams.connections().trading === 0,
      5_000,
      'the refused stream closed',
    );
    expect(refused.followAlive()).toBe(false);
    expect(fake.controls.streams.received().trading).toHaveLength(1);
  });
});

describe('the account and readiness', () => {
  it('the account: its number, buying power, equity and positions under the gateway market ids; never a key', async () => {
    const order = await routed(instruction('acct-buy'));
    await venue.place(order);
    await eventually(async () => (await venue.lookup(order.clientOrderId, order.market))?.status === 'filled', 5_000, 'the fill');
    const account = await venue.account();
    expect(account).toMatchObject({
      account: 'PA3REPLAY01',
      available: { USD: '99677.6' },
      equity: { USD: expect.stringMatching(/^99999\.\d+$/) },
      positions: [{ marketId: 'AAPL-USD', size: '2', entryPrice: '161.2', unrealizedPnl: expect.any(String) }],
    });
    expect(JSON.stringify(account)).not.toMatch(new RegExp(`${KEY_ID}|${SECRET}`));
    expect(await venue.readiness()).toEqual({ ready: true });
  });

  it('not ready with keys Alpaca refuses, or when it does not answer: the reason says why, never the key', async () => {
    const refused = tradingVenue({ ALPACA_SECRET_KEY: 'wrong-secret-value' });
    const notReady = await refused.readiness();
    expect(notReady).toEqual({ ready: false, reason: 'Alpaca answered the account with 401 (the keys were refused)' });
    expect(JSON.stringify(notReady)).not.toMatch(/wrong-secret-value|PKTRADINGKEY/);
    expect(await refusal(refused.account())).toMatchObject({ message: 'Alpaca answered the account with 401 (the keys were refused)' });
    expect(await refusal(refused.place(await routed(instruction('bad-keys'))))).toMatchObject({
      code: 'VENUE_UNHEALTHY',
      reason: expect.stringMatching(/401/),
    });
    fake.controls.http.hang({ api: 'trading', path: '/v2/account' });
    expect(await tradingVenue({ ALPACA_TIMEOUT_MS: '600' }).readiness()).toEqual({ ready: false, reason: 'Alpaca did not answer the account (timeout)' });
  });
});

describe('configuration', () => {
  const base = { ALPACA_KEY_ID: KEY_ID, ALPACA_SECRET_KEY: SECRET };
  it('routes orders to Alpaca paper trading only: live is refused, and the gateway account is required', () => {
    expect(alpacaSettings(base)!.orders).toBeUndefined();
    expect(alpacaSettings({ ...base, ALPACA_ORDERS: 'paper', ALPACA_ORDERS_ACCOUNT: 'acct-1' })).toMatchObject({
      orders: { account: 'acct-1' },
      tradingStreamUrl: 'wss://paper-api.alpaca.markets/stream',
    });
    expect(() => alpacaSettings({ ...base, ALPACA_ORDERS: 'live', ALPACA_ORDERS_ACCOUNT: 'acct-1' })).toThrow(/ALPACA_ORDERS: live trading is not supported/);
    expect(() => alpacaSettings({ ...base, ALPACA_ORDERS: 'paper' })).toThrow(/ALPACA_ORDERS_ACCOUNT is missing/);
    expect(() => alpacaSettings({ ...base, ALPACA_ORDERS_ACCOUNT: 'acct-1' })).toThrow(/ALPACA_ORDERS_ACCOUNT is set but ALPACA_ORDERS is not/);
    expect(() => alpacaSettings({ ...base, ALPACA_ORDERS: 'paper', ALPACA_ORDERS_ACCOUNT: 'acct-1', ALPACA_PAPER: 'false' })).toThrow(
      /live trading is not supported/,
    );
    expect(() =>
      alpacaSettings({ ...base, ALPACA_ORDERS: 'paper', ALPACA_ORDERS_ACCOUNT: 'acct-1', ALPACA_TRADING_URL: 'https://api.alpaca.markets' }),
    ).toThrow(/ALPACA_TRADING_URL is Alpaca's live host/);
  });

  it('the module says paper trading and orders alpaca-paper, never a key or the account', () => {
    const configured = alpaca.configure({ ...base, ALPACA_ORDERS: 'paper', ALPACA_ORDERS_ACCOUNT: 'acct-1' }, { simulatedMarkets: 0, simulatedFaults: {} })!;
    expect(configured.description).toMatchObject({ orders: 'alpaca-paper' });
    expect(configured.protocols[0]!.name).toBe('Alpaca US equities (IEX data, paper trading)');
    expect(JSON.stringify(configured.description)).not.toMatch(/acct-1|PKTRADING|secret/);
    expect(alpaca.variables).toEqual(expect.arrayContaining(['ALPACA_ORDERS', 'ALPACA_ORDERS_ACCOUNT']));
    const paperFills = alpaca.configure(base, { simulatedMarkets: 0, simulatedFaults: {} })!;
    expect(paperFills.protocols[0]!.name).toBe('Alpaca US equities (IEX data, paper execution)');
  });
});
