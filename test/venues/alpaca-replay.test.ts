/**
 * The Alpaca replay fake, driven only through Alpaca's own SDK (@alpacahq/alpaca-trade-api v4):
 * market data (bars with paging, snapshots, latest trades/quotes/bars), trading (clock, account,
 * assets, orders, positions), both WebSocket streams, and every fault the fake can inject, with
 * what the SDK does about each (error class, fields, retries).
 *
 * Nothing here may reach a host other than 127.0.0.1: the SDK's REST calls go through the fake's
 * `fetchApi` (which refuses any other host), the streams get the fake's URLs, and the global fetch
 * is wrapped for the duration of the file so that a call that escaped would fail the test.
 */
import {
  Alpaca,
  ApiError,
  AuthError,
  FetchError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  TimeFrame,
  ValidationError,
  streaming,
  trading,
  withResponse,
  type AlpacaClientOptions,
} from '@alpacahq/alpaca-trade-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAlpacaReplay, type AlpacaReplay } from '../../src/venues/alpaca/replay/alpaca-replay.js';
import { loadRecording } from '../../src/venues/alpaca/replay/recording.js';
import { loopbackOnly } from '../support/loopback-only.js';

const FIXTURES = new URL('../fixtures/alpaca/', import.meta.url);
const recorded = (name: string) => loadRecording(new URL(`${name}.json`, FIXTURES).pathname);

let replay: AlpacaReplay;
const streams: Array<{ disconnect(): void }> = [];
loopbackOnly();

beforeEach(async () => {
  replay = await startAlpacaReplay();
});

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.disconnect();
  expect(replay.controls.http.refusedUrls()).toEqual([]);
  await replay.close();
});

/** A client on the fake: no retries and no client-side rate limit unless a test asks for them. */
function client(extra: AlpacaClientOptions = {}): Alpaca {
  return new Alpaca({ ...replay.sdkOptions, retry: false, rateLimit: false, ...extra });
}

async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const RANGE = { start: new Date('2021-05-01T00:00:00Z'), end: new Date('2022-03-19T00:00:00Z') };

describe('market data over the SDK', () => {
  it('pages multi-symbol bars with next_page_token, raw and through the SDK helpers', async () => {
    const alpaca = client();
    const first = await alpaca.marketData.stocks.stockBars({ symbols: 'AAPL,MSFT', timeframe: '1Min', ...RANGE, limit: 100, feed: 'iex' });
    expect(Object.keys(first.bars)).toEqual(['AAPL']);
    expect(first.bars.AAPL).toHaveLength(100);
    expect(typeof first.nextPageToken).toBe('string');
    // The multi-symbol map is not deserialized: `t` is the wire string although the type says Date.
    expect(typeof (first.bars.AAPL![0]!.t as unknown)).toBe('string');
    expect(Buffer.from(first.nextPageToken!, 'base64').toString()).toMatch(/^AAPL\|T\|2022-03-18T15:09:00\.000000000Z$/);

    replay.controls.http.clearRequests();
    const all = await alpaca.marketData.collectStockBarsBySymbol({ symbols: ['AAPL', 'MSFT'], timeframe: TimeFrame.Minute, ...RANGE, limit: 100 });
    expect(all.AAPL).toHaveLength(390);
    expect(all.MSFT).toHaveLength(390);
    const pages = replay.controls.http.requests({ path: '/v2/stocks/bars' });
    expect(pages).toHaveLength(8);
    expect(pages[1]!.query).toMatchObject({ symbols: 'AAPL,MSFT', timeframe: '1Min', limit: '100', page_token: expect.any(String) });

    let seen = 0;
    for await (const { symbol, value } of alpaca.marketData.iterateStockBars({ symbols: 'MSFT', timeframe: TimeFrame.Minute, ...RANGE, limit: 250 })) {
      expect(symbol).toBe('MSFT');
      expect(typeof value.c).toBe('number');
      seen += 1;
    }
    expect(seen).toBe(390);

    const normalized = await alpaca.marketData.getStockBars({ symbols: ['AAPL'], timeframe: TimeFrame.Hour, ...RANGE });
    expect(normalized.AAPL).toHaveLength(7);
    expect(normalized.AAPL![0]).toMatchObject({ symbol: 'AAPL', timestamp: new Date('2022-03-18T13:00:00Z'), open: 160.59 });
  });

  it('answers the recorded bars requests with the recorded bodies', async () => {
    const recording = recorded('stocks-bars');
    const raw = await replay.fetch(`https://data.alpaca.markets/v2/stocks/bars?symbols=AAPL&start=2022-02-01T00:00:00Z&timeframe=1Day&limit=2`, {
      headers: { 'APCA-API-KEY-ID': replay.credentials.keyId, 'APCA-API-SECRET-KEY': replay.credentials.secret },
    });
    expect(await raw.json()).toEqual(recording.response);

    const desc = await client().marketData.stocks.stockBars({
      symbols: 'TSLA',
      timeframe: '1Day',
      start: new Date('2023-09-01T00:00:00Z'),
      end: new Date('2023-09-28T00:00:00Z'),
      limit: 3,
      sort: 'desc',
    });
    expect(desc.bars).toEqual((recorded('stocks-bars-desc').response as any).bars);

    const empty = await replay.fetch('https://data.alpaca.markets/v2/stocks/bars?symbols=AAPL&start=2030-01-01&timeframe=1Day', {
      headers: { 'APCA-API-KEY-ID': replay.credentials.keyId, 'APCA-API-SECRET-KEY': replay.credentials.secret },
    });
    expect(await empty.json()).toEqual(recorded('stocks-bars-empty').response);
  });

  it('serves single-symbol bars with Date timestamps, and their pagination helpers', async () => {
    const alpaca = client();
    const page = await alpaca.marketData.stocks.stockBarSingle({ symbol: 'AAPL', timeframe: '15Min', ...RANGE, limit: 10 });
    expect(page.symbol).toBe('AAPL');
    expect(page.bars).toHaveLength(10);
    expect(page.bars[0]!.t).toBeInstanceOf(Date);
    expect(page.nextPageToken).toBeTruthy();
    const all = await alpaca.marketData.collectStockBarSingle({ symbol: 'AAPL', timeframe: TimeFrame.Minute, ...RANGE, limit: 50 });
    expect(all).toHaveLength(390);
    const unknown = await alpaca.marketData.stocks.stockBarSingle({ symbol: 'NOPE', timeframe: '1Min', ...RANGE });
    expect(unknown.bars).toEqual([]);
  });

  it('defaults start to the beginning of the venue day, as Alpaca does (historic data then comes back empty)', async () => {
    const bars = await client().marketData.stocks.stockBars({ symbols: 'AAPL', timeframe: '1Min' });
    expect(bars.bars).toEqual({});
    expect(bars.nextPageToken).toBeNull();
  });

  it('serves snapshots, unknown symbols as null', async () => {
    const alpaca = client();
    const snapshots = await alpaca.marketData.stocks.stockSnapshots({ symbols: 'AAPL,MSFT,INVALID', feed: 'iex' });
    expect(snapshots.AAPL!.latestTrade).toMatchObject({ p: 161.1998, x: 'D' });
    expect(snapshots.AAPL!.latestTrade!.t).toBeInstanceOf(Date);
    expect(snapshots.AAPL!.dailyBar!.o).toBe(160.59);
    expect(snapshots.MSFT!.prevDailyBar).toBeUndefined();
    expect(snapshots.INVALID).toBeNull();
    const single = await alpaca.marketData.stocks.stockSnapshotSingle({ symbol: 'AAPL' });
    expect(single.symbol).toBe('AAPL');
    expect(single.latestQuote).toMatchObject({ ap: 161.2, bp: 161.19 });
    expect(await caught(alpaca.marketData.stocks.stockSnapshotSingle({ symbol: 'NOPE' }))).toBeInstanceOf(NotFoundError);
  });

  it('serves latest trades, quotes and bars', async () => {
    const alpaca = client();
    const trades = await alpaca.marketData.stocks.stockLatestTrades({ symbols: 'AAPL,TSLA,NOPE', feed: 'iex' });
    expect(Object.keys(trades.trades).sort()).toEqual(['AAPL', 'TSLA']);
    expect(trades.trades.TSLA).toMatchObject({ p: 720.19, i: 11017 });
    const quotes = await alpaca.marketData.stocks.stockLatestQuotes({ symbols: 'AAPL' });
    expect(quotes.quotes.AAPL).toMatchObject({ ap: 161.2, bp: 161.19 });
    const bars = await alpaca.marketData.stocks.stockLatestBars({ symbols: 'SPY,TSLA' });
    expect(bars.bars.SPY).toMatchObject({ c: 392.18 });
    expect(await alpaca.marketData.getLatestPrice('TSLA')).toBe(720.19);
    replay.controls.market.setPrice('TSLA', 701.5);
    expect(await alpaca.marketData.getLatestPrice('TSLA')).toBe(701.5);
  });

  it('refuses wrong keys with 403, a free plan recent SIP data, and a limit above 10000', async () => {
    const wrong = await caught(client({ keyId: 'nope', secret: 'nope' }).marketData.stocks.stockLatestTrades({ symbols: 'AAPL' }));
    expect(wrong).toBeInstanceOf(PermissionError);
    expect(wrong).toMatchObject({ status: 403, message: 'forbidden.' });

    const sip = await caught(client().marketData.stocks.stockBars({ symbols: 'AAPL', timeframe: '1Min', feed: 'sip' }));
    expect(sip).toBeInstanceOf(PermissionError);
    expect(sip.message).toMatch(/^subscription does not permit querying recent SIP data \(Your account may not have SIP/);

    const limit = await caught(client().marketData.stocks.stockBars({ symbols: 'AAPL', timeframe: '1Min', limit: 10_001 }));
    expect(limit).toBeInstanceOf(ValidationError);
    expect(limit.status).toBe(400);
  });
});

describe('trading over the SDK', () => {
  it('reports the clock, open, closed, and far behind', async () => {
    const alpaca = client();
    const open = await alpaca.trading.clock.legacyClock();
    expect(open.isOpen).toBe(true);
    expect(open.nextClose.getTime()).toBeGreaterThan(open.timestamp.getTime());
    const raw = (await (await replay.fetch('https://paper-api.alpaca.markets/v2/clock', { headers: authHeaders() })).json()) as any;
    expect(raw.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}-0[45]:00$/);
    expect(raw.next_open).toMatch(/T09:30:00-0[45]:00$/);

    replay.controls.clock.setMarketOpen(false);
    replay.controls.clock.setOffsetMs(-6 * 3_600_000);
    const closed = await alpaca.trading.clock.legacyClock();
    expect(closed.isOpen).toBe(false);
    expect(Math.abs(closed.timestamp.getTime() - (Date.now() - 6 * 3_600_000))).toBeLessThan(5_000);
    const v3 = await alpaca.trading.clock.clock();
    expect(v3.clocks[0]).toMatchObject({ phase: 'closed', market: { acronym: 'NYSE', mic: 'XNYS' } });
  });

  it('reports the account with money as strings, in the recorded key set', async () => {
    const account = await client().trading.account.getAccount();
    expect(account).toMatchObject({ cash: '100000', buyingPower: '100000', equity: '100000', status: 'ACTIVE', currency: 'USD' });
    expect(account.createdAt).toBeInstanceOf(Date);
    const keys = Object.keys(recorded('account').response as object);
    for (const key of keys) expect(account).toHaveProperty([key]);
  });

  it('lists and finds assets', async () => {
    const alpaca = client();
    const assets = await alpaca.trading.assets.getV2Assets({ status: 'active' });
    expect(assets.map((a) => a.symbol)).toEqual(['AAPL', 'MSFT', 'SPY', 'TSLA', 'ZVZZT']);
    const aapl = await alpaca.trading.assets.getV2AssetsSymbolOrAssetId({ symbolOrAssetId: 'AAPL' });
    expect(aapl).toMatchObject({ id: (recorded('assets-symbol').response as any).id, _class: 'us_equity', fractionable: true, tradable: true });
    expect(await caught(alpaca.trading.assets.getV2AssetsSymbolOrAssetId({ symbolOrAssetId: 'NOPE' }))).toBeInstanceOf(NotFoundError);
  });

  it('places a market order that fills at the ask, and shows the position and the account after it', async () => {
    const alpaca = client();
    const placed = await alpaca.trading.orders.market({ symbol: 'AAPL', qty: 2, side: 'buy', clientOrderId: 'mkt-1' });
    expect(placed).toMatchObject({ status: 'pending_new', qty: '2', filledQty: '0', type: 'market', timeInForce: 'day', clientOrderId: 'mkt-1' });
    expect(placed.createdAt).toBeInstanceOf(Date);
    // The SDK keeps the wire keys too.
    expect(placed.client_order_id).toBe('mkt-1');

    const filled = await waitFor(async () => {
      const order = await alpaca.trading.orders.getOrderByOrderID({ orderId: placed.id! });
      return order.status === 'filled' && order;
    });
    expect(filled).toMatchObject({ filledQty: '2', filledAvgPrice: '161.2' });
    expect(filled.filledAt).toBeInstanceOf(Date);

    const rawOrder = await (await replay.fetch(`https://paper-api.alpaca.markets/v2/orders/${placed.id}`, { headers: authHeaders() })).json();
    const recordedOrder = (recorded('positions-delete-all').response as any[])[0].body;
    expect(Object.keys(rawOrder as object).sort()).toEqual(Object.keys(recordedOrder).sort());

    const positions = await alpaca.trading.positions.getAllOpenPositions();
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ symbol: 'AAPL', qty: '2', avgEntryPrice: '161.2', side: 'long', costBasis: '322.4', currentPrice: '161.1998' });
    const one = await alpaca.trading.positions.getOpenPosition({ symbolOrAssetId: 'AAPL' });
    expect(one.qtyAvailable).toBe('2');
    const missing = await caught(alpaca.trading.positions.getOpenPosition({ symbolOrAssetId: 'MSFT' }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: 40410000, message: 'position does not exist' });

    const account = await alpaca.trading.account.getAccount();
    expect(account).toMatchObject({ cash: '99677.6', longMarketValue: '322.3996' });
  });

  it('rests a limit order, fills it partly then cancels it, with the recorded DELETE statuses', async () => {
    const alpaca = client();
    const order = await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 10, side: 'buy', limitPrice: 150, clientOrderId: 'lmt-1' });
    await waitFor(async () => (await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! })).status === 'new');
    const open = await alpaca.trading.orders.getAllOrders({ status: 'open', symbols: ['AAPL'] });
    expect(open.map((o) => o.id)).toEqual([order.id]);
    const byClient = await alpaca.trading.orders.getOrderByClientOrderId({ clientOrderId: 'lmt-1' });
    expect(byClient).toMatchObject({ id: order.id, limitPrice: '150' });
    expect(await caught(alpaca.trading.orders.getOrderByClientOrderId({ clientOrderId: 'nope' }))).toBeInstanceOf(NotFoundError);

    replay.controls.orders.fill(order.id!, { qty: 4 });
    const partial = await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! });
    expect(partial).toMatchObject({ status: 'partially_filled', filledQty: '4', filledAvgPrice: '150' });

    const cancel = await alpaca.trading.orders.deleteOrderByOrderIDRaw({ orderId: order.id! });
    expect(cancel.raw.status).toBe(recorded('orders-delete-204').status);
    expect(await cancel.value()).toBeUndefined();
    const canceled = await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! });
    expect(canceled).toMatchObject({ status: 'canceled', filledQty: '4' });
    expect(canceled.canceledAt).toBeInstanceOf(Date);

    const again = await caught(alpaca.trading.orders.deleteOrderByOrderID({ orderId: order.id! }));
    expect(again).toBeInstanceOf(ValidationError);
    expect(again).toMatchObject({ status: recorded('orders-delete-422').status, code: 42210000, message: 'order is not cancelable' });
    const unknown = await caught(alpaca.trading.orders.deleteOrderByOrderID({ orderId: '61e69015-8549-4bfd-b9c3-01e75843f47d' }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.status).toBe(recorded('orders-delete-404').status);

    const closed = await alpaca.trading.orders.getAllOrders({ status: 'closed' });
    expect(closed.map((o) => o.id)).toEqual([order.id]);
  });

  it('fills a resting limit order when the price crosses it', async () => {
    const alpaca = client();
    const order = await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 160 });
    await waitFor(async () => (await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! })).status === 'new');
    replay.controls.market.setPrice('AAPL', 159.5);
    const filled = await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! });
    expect(filled).toMatchObject({ status: 'filled', filledAvgPrice: '159.51' });
  });

  it('rejects a duplicate client_order_id as Alpaca does (422, 40010001)', async () => {
    const alpaca = client();
    await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 100, clientOrderId: 'dup-1' });
    const error = await caught(alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 100, clientOrderId: 'dup-1' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, code: 40010001, message: 'client_order_id must be unique' });
  });

  it('trades fractions and notional amounts where the asset is fractionable, and only as DAY orders', async () => {
    const alpaca = client();
    const notional = await alpaca.trading.orders.market({ symbol: 'AAPL', notional: '100', side: 'buy' });
    expect(notional).toMatchObject({ notional: '100', qty: undefined });
    const filled = await waitFor(async () => {
      const order = await alpaca.trading.orders.getOrderByOrderID({ orderId: notional.id! });
      return order.status === 'filled' && order;
    });
    expect(filled.filledQty).toBe('0.620347394');
    const fraction = await alpaca.trading.orders.market({ symbol: 'AAPL', qty: '0.5', side: 'buy' });
    expect(fraction.qty).toBe('0.5');

    const notFractionable = await caught(alpaca.trading.orders.market({ symbol: 'ZVZZT', qty: 0.5, side: 'buy' }));
    expect(notFractionable).toBeInstanceOf(ValidationError);
    expect(notFractionable.message).toBe('asset ZVZZT is not fractionable');
    const gtc = await caught(alpaca.trading.orders.market({ symbol: 'AAPL', qty: 0.5, side: 'buy', timeInForce: 'gtc' }));
    expect(gtc.message).toBe('fractional orders must be DAY orders');
    const inactive = await caught(alpaca.trading.orders.market({ symbol: 'ZWZZT', qty: 1, side: 'buy' }));
    expect(inactive).toMatchObject({ status: 422, message: 'asset ZWZZT is not tradable' });
  });

  it('refuses orders beyond buying power or holdings with the recorded 403 bodies', async () => {
    const alpaca = client();
    const tooBig = await caught(alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1000, side: 'buy' }));
    expect(tooBig).toBeInstanceOf(PermissionError);
    expect(tooBig).toMatchObject({ status: 403, code: 40310000, message: 'insufficient buying power' });
    // ApiError parses a clone: the response body is still readable for the extra fields.
    expect(await tooBig.response.json()).toMatchObject({ buying_power: '100000', cost_basis: '161200' });

    const short = await caught(alpaca.trading.orders.market({ symbol: 'MSFT', qty: 1, side: 'sell' }));
    expect(short).toMatchObject({ status: 403, code: 40310000, message: 'account is not allowed to short' });

    await alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy' });
    await waitFor(async () => (await alpaca.trading.positions.getAllOpenPositions()).length === 1);
    const tooMany = await caught(alpaca.trading.orders.market({ symbol: 'AAPL', qty: 3, side: 'sell' }));
    expect(tooMany).toMatchObject({ status: 403, message: 'insufficient qty available for order (requested: 3, available: 1)' });
    expect(await tooMany.response.json()).toMatchObject({ available: '1', existing_qty: '1', held_for_orders: '0', symbol: 'AAPL' });
  });

  it('rejects the next order on command, synchronously (HTTP) or on the stream', async () => {
    const alpaca = client();
    replay.controls.orders.rejectNext({ reason: 'insufficient_buying_power' });
    expect(await caught(alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy' }))).toMatchObject({
      status: 403,
      message: 'insufficient buying power',
    });
    replay.controls.orders.rejectNext({ reason: 'market_closed' });
    expect(await caught(alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy' }))).toMatchObject({ status: 403, message: 'market is closed' });
    replay.controls.orders.rejectNext({ status: 422, body: { code: 42210000, message: 'custom refusal' } });
    expect(await caught(alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy' }))).toMatchObject({ status: 422, message: 'custom refusal' });

    replay.controls.orders.rejectNext({ async: true });
    const accepted = await alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy' });
    expect(accepted.status).toBe('pending_new');
    const rejected = await waitFor(async () => {
      const order = await alpaca.trading.orders.getOrderByOrderID({ orderId: accepted.id! });
      return order.status === 'rejected' && order;
    });
    expect(rejected.failedAt).toBeInstanceOf(Date);
  });

  it('expires and rejects resting orders on command', async () => {
    const alpaca = client();
    const a = await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 100 });
    const b = await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 101 });
    await waitFor(() => replay.controls.orders.all().every((o) => o.status === 'new'));
    replay.controls.orders.expire(a.id!);
    replay.controls.orders.reject(b.id!);
    expect((await alpaca.trading.orders.getOrderByOrderID({ orderId: a.id! })).status).toBe('expired');
    expect((await alpaca.trading.orders.getOrderByOrderID({ orderId: b.id! })).status).toBe('rejected');
  });

  it('queues market orders while the market is closed and routes them at the open', async () => {
    replay.controls.clock.setMarketOpen(false);
    const alpaca = client();
    const order = await alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy' });
    expect(order.status).toBe('accepted');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! })).status).toBe('accepted');
    replay.controls.clock.setMarketOpen(true);
    expect((await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! })).status).toBe('filled');
  });

  it('keeps cancels pending while told to, and a fill can still win', async () => {
    const alpaca = client();
    replay.controls.orders.holdCancels(true);
    const order = await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 100 });
    await waitFor(() => replay.controls.orders.all()[0]?.status === 'new');
    await alpaca.trading.orders.deleteOrderByOrderID({ orderId: order.id! });
    expect((await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! })).status).toBe('pending_cancel');
    replay.controls.orders.fill(order.id!);
    expect((await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! })).status).toBe('filled');
  });

  it('refuses wrong keys with 401 and Alpaca code 40110000', async () => {
    const error = await caught(client({ keyId: 'nope', secret: 'nope' }).trading.account.getAccount());
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ status: 401, code: 40110000, message: 'request is not authorized' });
  });

  it('works with raw Api classes given basePath, and never dials the live host', async () => {
    const { keyId, secret } = replay.credentials;
    const accounts = new trading.AccountsApi(new trading.Configuration({ basePath: replay.urls.trading, keyId, secret }));
    expect((await accounts.getAccount()).cash).toBe('100000');

    const live = await caught(client({ paper: false }).trading.account.getAccount());
    expect(live).toBeInstanceOf(FetchError);
    expect(live.cause.message).toMatch(/refusing to dial https:\/\/api\.alpaca\.markets/);
    expect(replay.controls.http.refusedUrls()).toEqual(['https://api.alpaca.markets/v2/account']);
    // The afterEach check wants no refused URL: hand it a fresh fake.
    await replay.close();
    replay = await startAlpacaReplay();
  });

  it('sends the APCA-API-* headers and its own User-Agent; withResponse exposes status and headers', async () => {
    const answer = await withResponse(client().trading.account.getAccountRaw());
    expect(answer).toMatchObject({ status: 200, data: { cash: '100000' }, rateLimit: { limit: 200, remaining: 199 } });
    expect(answer.rateLimit!.reset).toBeInstanceOf(Date);
    expect(answer.headers.get('X-Request-ID')).toMatch(/^[0-9a-f]{32}$/);
    const [request] = replay.controls.http.requests({ api: 'trading' });
    expect(request!.headers).toMatchObject({ 'apca-api-key-id': 'replay-key-id', 'apca-api-secret-key': 'replay-secret' });
    expect(request!.headers['user-agent']).toMatch(/^APCA-NODE\/4\.\d+\.\d+ Node\/20\./);
  });
});

describe('streams over the SDK', () => {
  function tradingStream(alpaca: Alpaca, options: Parameters<Alpaca['trading']['stream']>[0] = {}) {
    const stream = alpaca.trading.stream({ url: replay.urls.tradingStream, initialReconnectMs: 20, reconnectJitter: 0, pingIntervalMs: 0, ...options });
    streams.push(stream);
    expect((stream as any).url).toBe(replay.urls.tradingStream);
    return stream;
  }

  function stockStream(alpaca: Alpaca, options: Parameters<Alpaca['marketData']['stockStream']>[0] = {}) {
    const stream = alpaca.marketData.stockStream({ url: replay.urls.stockStream, initialReconnectMs: 20, reconnectJitter: 0, pingIntervalMs: 0, ...options });
    streams.push(stream);
    expect((stream as any).url).toBe(replay.urls.stockStream);
    return stream;
  }

  async function listening(stream: streaming.TradingStream): Promise<void> {
    const subscribed = new Promise<unknown>((resolve) => stream.once(streaming.EVENT.SUBSCRIPTION, resolve));
    stream.subscribeTradeUpdates();
    stream.connect();
    expect(await stream.waitForAuthentication(2000)).toBe(true);
    expect(await subscribed).toEqual(['trade_updates']);
  }

  it('delivers trade updates (new, partial_fill, fill, canceled) with Alpaca shapes', async () => {
    const alpaca = client();
    const stream = tradingStream(alpaca);
    const updates: streaming.TradeUpdate[] = [];
    stream.onTradeUpdate((u) => updates.push(u));
    await listening(stream);
    expect(replay.controls.streams.received().trading).toEqual([
      { action: 'authenticate', data: { key_id: 'replay-key-id', secret_key: 'replay-secret' } },
      { action: 'listen', data: { streams: ['trade_updates'] } },
    ]);

    const order = await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 3, side: 'buy', limitPrice: 150, clientOrderId: 'stream-1' });
    await waitFor(() => updates.length === 1);
    replay.controls.orders.fill(order.id!, { qty: 1, price: '149.5' });
    replay.controls.orders.fill(order.id!, { price: 149 });
    await waitFor(() => updates.length === 3);
    expect(updates.map((u) => u.event)).toEqual(['new', 'partial_fill', 'fill']);
    const [, partial, fill] = updates;
    expect(partial).toMatchObject({ price: '149.5', qty: '1', positionQty: '1', executionId: expect.any(String) });
    expect(partial!.timestamp).toBeInstanceOf(Date);
    expect(partial!.order).toMatchObject({ id: order.id, status: 'partially_filled', filledQty: '1', clientOrderId: 'stream-1' });
    expect(partial!.order.client_order_id).toBe('stream-1');
    expect(fill).toMatchObject({ price: '149', qty: '2', positionQty: '3', order: { status: 'filled', filledAvgPrice: '149.166666667' } });

    const other = await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 100 });
    await waitFor(() => updates.length === 4);
    await alpaca.trading.orders.deleteOrderByOrderID({ orderId: other.id! });
    await waitFor(() => updates.length === 5);
    expect(updates.at(-1)).toMatchObject({ event: 'canceled', order: { id: other.id, status: 'canceled' } });
  });

  it('ends the trading stream on bad credentials without reconnecting', async () => {
    const stream = tradingStream(client({ keyId: 'nope', secret: 'nope' }));
    const errors: string[] = [];
    stream.onError((message) => errors.push(message));
    stream.connect();
    const result = await stream.waitForAuthenticationResult(2000);
    expect(result).toMatchObject({ authenticated: false, status: streaming.STREAM_AUTH_STATUS.SERVER_REJECTED, message: 'auth failed' });
    expect(errors).toContain('auth failed');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stream.getState()).toBe(streaming.STATE.DISCONNECTED);
    expect(replay.controls.streams.connections().trading).toBe(0);
  });

  it('reconnects and listens again after a dropped trading stream; an event lost in the drop is found over REST', async () => {
    const alpaca = client();
    const stream = tradingStream(alpaca);
    const updates: streaming.TradeUpdate[] = [];
    const reconnected: number[] = [];
    stream.onTradeUpdate((u) => updates.push(u));
    stream.onReconnecting((attempt) => reconnected.push(attempt));
    await listening(stream);
    // Each (re)subscription the server acknowledges comes back as a SUBSCRIPTION event.
    let acks = 0;
    stream.on(streaming.EVENT.SUBSCRIPTION, () => (acks += 1));

    const order = await alpaca.trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 150 });
    await waitFor(() => updates.length === 1);
    replay.controls.streams.dropTradingBeforeNextEvent();
    replay.controls.orders.fill(order.id!);
    await waitFor(() => acks === 1);
    expect(reconnected).toEqual([1]);
    expect(updates.map((u) => u.event)).toEqual(['new']);
    expect((await alpaca.trading.orders.getOrderByOrderID({ orderId: order.id! })).status).toBe('filled');

    replay.controls.streams.dropTrading();
    await waitFor(() => acks === 2);
    // A successful re-authentication resets the SDK's attempt counter.
    expect(reconnected).toEqual([1, 1]);
    expect(replay.controls.streams.connections()).toMatchObject({ trading: 1, tradingListeners: 1 });
    await alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy' });
    await waitFor(() => updates.length === 3);
    expect(updates.map((u) => u.event)).toEqual(['new', 'new', 'fill']);
  });

  it('submitAndWait resolves on the fill when handed a stream on the fake', async () => {
    const alpaca = client();
    const stream = tradingStream(alpaca);
    stream.connect();
    const order = await alpaca.trading.submitAndWait({ type: 'market', symbol: 'AAPL', qty: 1, side: 'buy', timeInForce: 'day' }, { stream, timeoutMs: 3000 });
    expect(order).toMatchObject({ status: 'filled', filledQty: '1' });
  });

  it('streams trades, quotes and bars over msgpack with nanosecond timestamps, and resubscribes after a drop', async () => {
    const alpaca = client();
    const stream = stockStream(alpaca);
    const trades: streaming.StreamTrade[] = [];
    const quotes: streaming.StreamQuote[] = [];
    const bars: streaming.StreamBar[] = [];
    const subscriptions: unknown[] = [];
    stream.onTrade((t) => trades.push(t));
    stream.onQuote((q) => quotes.push(q));
    stream.onBar((b) => bars.push(b));
    stream.on(streaming.EVENT.SUBSCRIPTION, (s: unknown) => subscriptions.push(s));
    stream.onConnect(() => {
      stream.subscribeForTrades(['AAPL']);
      stream.subscribeForQuotes(['AAPL']);
      stream.subscribeForBars(['AAPL', 'MSFT']);
    });
    stream.connect();
    expect(await stream.waitForAuthentication(2000)).toBe(true);
    await waitFor(() => replay.controls.streams.dataSubscriptions().bars!.length === 2);
    expect(replay.controls.streams.received().data[0]).toEqual({ action: 'auth', key: 'replay-key-id', secret: 'replay-secret' });

    replay.controls.market.setPrice('AAPL', 170.25);
    replay.controls.market.setPrice('MSFT', 300);
    replay.controls.market.publishBar('MSFT', { t: '2022-03-18T14:35:00Z', o: 300, h: 301, l: 299.5, c: 300.5, v: 1200, n: 12, vw: 300.2 });
    await waitFor(() => trades.length === 1 && quotes.length === 1 && bars.length === 1);
    expect(trades[0]).toMatchObject({ symbol: 'AAPL', price: 170.25, size: 100, exchange: 'V', conditions: ['@'], tape: 'C' });
    expect(trades[0]!.timestamp).toBeInstanceOf(Date);
    expect(trades[0]!.timestampRaw).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
    expect(quotes[0]).toMatchObject({ symbol: 'AAPL', bidPrice: 170.24, askPrice: 170.26 });
    expect(bars[0]).toMatchObject({
      symbol: 'MSFT',
      open: 300,
      close: 300.5,
      volume: 1200,
      vwap: 300.2,
      tradeCount: 12,
      timestampRaw: '2022-03-18T14:35:00.000000000Z',
    });
    expect(stream.getSubscriptions()).toMatchObject({ trades: ['AAPL'], quotes: ['AAPL'], bars: ['AAPL', 'MSFT'] });

    // After the drop the SDK reconnects, authenticates and resubscribes by itself; the server's
    // subscription answer arrives as a new SUBSCRIPTION event.
    const acknowledged = subscriptions.length;
    replay.controls.streams.dropData();
    await waitFor(() => subscriptions.length > acknowledged);
    expect(replay.controls.streams.dataSubscriptions()).toMatchObject({ trades: ['AAPL'], quotes: ['AAPL'], bars: ['AAPL', 'MSFT'] });
    replay.controls.market.setPrice('AAPL', 171);
    await waitFor(() => trades.length === 2);
    expect(trades[1]!.price).toBe(171);
  });

  it('rejects bad data-stream credentials (402) and a second connection on the free plan (406)', async () => {
    const bad = stockStream(client({ keyId: 'nope', secret: 'nope' }));
    bad.connect();
    expect(await bad.waitForAuthenticationResult(2000)).toMatchObject({ authenticated: false, code: 402, message: 'auth failed' });

    const first = stockStream(client());
    first.connect();
    expect(await first.waitForAuthentication(2000)).toBe(true);
    const second = stockStream(client(), { reconnect: false });
    const errors: string[] = [];
    second.onError((message) => errors.push(message));
    second.connect();
    expect(await second.waitForAuthenticationResult(2000)).toMatchObject({ authenticated: false, status: streaming.STREAM_AUTH_STATUS.CLOSED });
    expect(errors).toContain('connection limit exceeded');
  });
});

describe('faults, and what the SDK makes of them', () => {
  it('429 with Retry-After: RateLimitError with status, headers and rate-limit info; no retry when disabled', async () => {
    replay.controls.http.rateLimit({ api: 'data', retryAfterSeconds: 3 });
    const error = await caught(client().marketData.stocks.stockLatestTrades({ symbols: 'AAPL' }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'RateLimitError',
      status: 429,
      message: 'too many requests.',
      retryAfterMs: 3000,
      rateLimit: { limit: 200, remaining: 0 },
    });
    expect(error.requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(error.response.headers.get('Retry-After')).toBe('3');
    expect(replay.controls.http.requests({ api: 'data' })).toHaveLength(1);
  });

  it('retries GETs by itself by default (3 attempts, honouring Retry-After), never a POST', async () => {
    const retries: number[] = [];
    const alpaca = new Alpaca({ ...replay.sdkOptions, retry: { onRetry: (e) => retries.push(e.status!) } });
    replay.controls.http.rateLimit({ api: 'trading', times: 2, retryAfterSeconds: 0 });
    expect((await alpaca.trading.account.getAccount()).cash).toBe('100000');
    expect(retries).toEqual([429, 429]);
    expect(replay.controls.http.requests({ path: '/v2/account' })).toHaveLength(3);

    replay.controls.http.rateLimit({ api: 'trading', method: 'POST', retryAfterSeconds: 0 });
    const post = await caught(alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy' }));
    expect(post).toBeInstanceOf(RateLimitError);
    expect(replay.controls.http.requests({ method: 'POST' })).toHaveLength(1);

    replay.controls.http.rateLimit({ api: 'trading', times: 3, retryAfterSeconds: 0 });
    expect(await caught(alpaca.trading.account.getAccount())).toMatchObject({ status: 429, code: 42910000 });
  });

  it('500: a plain ApiError with Alpaca code; retried with backoff by default', async () => {
    replay.controls.http.serverError({ api: 'trading' });
    const error = await caught(client().trading.positions.getAllOpenPositions());
    expect(error.constructor).toBe(ApiError);
    expect(error).toMatchObject({ status: 500, code: 50010000, message: 'internal server error occurred' });

    replay.controls.http.serverError({ api: 'data', status: 503, times: 2 });
    const retried = await new Alpaca({ ...replay.sdkOptions, retry: { retryDelayMs: 10 } }).marketData.stocks.stockLatestQuotes({ symbols: 'AAPL' });
    expect(retried.quotes.AAPL).toBeDefined();
    expect(replay.controls.http.requests({ api: 'data' })).toHaveLength(3);
  });

  it('a hang past timeoutMs: FetchError caused by a TimeoutError, not retried', async () => {
    replay.controls.http.hang({ api: 'trading', times: 5 });
    const alpaca = new Alpaca({ ...replay.sdkOptions, timeoutMs: 200 });
    const started = Date.now();
    const error = await caught(alpaca.trading.account.getAccount());
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toBeInstanceOf(FetchError);
    expect(error).toMatchObject({ name: 'FetchError', message: 'The request was aborted' });
    expect(error.cause).toMatchObject({ name: 'TimeoutError', message: 'Request timed out after 200 ms' });
    expect(replay.controls.http.requests({ path: '/v2/account' })).toHaveLength(1);
  });

  it('a lost connection: FetchError caused by a TypeError; a GET is retried, and succeeds', async () => {
    replay.controls.http.resetConnection({ api: 'trading' });
    const error = await caught(client().trading.account.getAccount());
    expect(error).toBeInstanceOf(FetchError);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.cause.message).toBe('fetch failed');

    replay.controls.http.resetConnection({ api: 'trading' });
    const alpaca = new Alpaca({ ...replay.sdkOptions, retry: { retryDelayMs: 10 } });
    expect((await alpaca.trading.account.getAccount()).cash).toBe('100000');
  });

  it('malformed JSON and an HTML answer: the body parse throws a SyntaxError, unwrapped', async () => {
    replay.controls.http.malformedJson({ api: 'trading' });
    const trade = await caught(client().trading.account.getAccount());
    expect(trade).toBeInstanceOf(SyntaxError);
    replay.controls.http.malformedJson({ api: 'data' });
    const data = await caught(client().marketData.stocks.stockBars({ symbols: 'AAPL', timeframe: '1Min' }));
    expect(data).toBeInstanceOf(SyntaxError);

    // The SDK ignores the content type of a 2xx: an HTML page fails in the JSON parse the same way.
    replay.controls.http.wrongContentType({ api: 'trading' });
    expect(await caught(client().trading.account.getAccount())).toBeInstanceOf(SyntaxError);
    // A JSON body under a wrong content type is read as JSON.
    replay.controls.http.wrongContentType({ api: 'trading', contentType: 'text/plain', body: '{"cash":"1"}' });
    expect((await client().trading.account.getAccount()).cash).toBe('1');
    // An HTML error page (a proxy's 502): ApiError whose message is the raw page.
    replay.controls.http.wrongContentType({ api: 'trading', status: 502 });
    const proxy = await caught(client().trading.account.getAccount());
    expect(proxy).toMatchObject({ status: 502, code: undefined });
    expect(proxy.message).toMatch(/^<html>/);
  });

  it('an order accepted but never answered: the POST times out, the order exists and fills; reconcile by client order id', async () => {
    const alpaca = new Alpaca({ ...replay.sdkOptions, timeoutMs: 300 });
    const stream = alpaca.trading.stream({ url: replay.urls.tradingStream, pingIntervalMs: 0 });
    streams.push(stream);
    const updates: streaming.TradeUpdate[] = [];
    stream.onTradeUpdate((u) => updates.push(u));
    const subscribed = new Promise((resolve) => stream.once(streaming.EVENT.SUBSCRIPTION, resolve));
    stream.subscribeTradeUpdates();
    stream.connect();
    await subscribed;

    replay.controls.http.acceptOrderThenHang();
    const error = await caught(alpaca.trading.orders.market({ symbol: 'AAPL', qty: 1, side: 'buy', clientOrderId: 'ambiguous-1' }));
    expect(error).toBeInstanceOf(FetchError);
    expect(error.cause.name).toBe('TimeoutError');
    expect(replay.controls.http.requests({ method: 'POST' })).toHaveLength(1);
    const found = await alpaca.trading.orders.getOrderByClientOrderId({ clientOrderId: 'ambiguous-1' });
    expect(found.status).toBe('filled');
    await waitFor(() => updates.length === 2);
    expect(updates.map((u) => u.event)).toEqual(['new', 'fill']);
  });

  it('a venue clock far behind stamps orders behind the machine clock', async () => {
    replay.controls.clock.setOffsetMs(-3 * 3_600_000);
    const order = await client().trading.orders.limit({ symbol: 'AAPL', qty: 1, side: 'buy', limitPrice: 100 });
    expect(Date.now() - order.createdAt!.getTime()).toBeGreaterThan(3 * 3_600_000 - 5_000);
  });
});

function authHeaders(): Record<string, string> {
  return { 'APCA-API-KEY-ID': replay.credentials.keyId, 'APCA-API-SECRET-KEY': replay.credentials.secret };
}
