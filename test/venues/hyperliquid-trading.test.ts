import { InfoClient, HttpTransport } from '@nktkas/hyperliquid';
import { createL1ActionHash } from '@nktkas/hyperliquid/signing';
import { pino } from 'pino';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sumDecimals } from '../../src/domain/decimal-strings.js';
import type { MarketDefinition } from '../../src/domain/market.js';
import { GatewayError } from '../../src/errors/gateway-error.js';
import type { ExecutionInstruction } from '../../src/execution/instruction.js';
import type { Quote, VenueContext } from '../../src/execution/venues/execution-venue.js';
import { RequestBudget } from '../../src/sources/request-budget.js';
import { slippageBound, VenueOutcomeUnknown, VenueRefusal, type RoutedOrder, type RoutedOrderState } from '../../src/execution/venues/routed-venue.js';
import { MemorySnapshotCache } from '../../src/stores/memory/memory-snapshot-cache.js';
import { perpCatalogue, type UniverseAsset } from '../../src/venues/hyperliquid/hyperliquid-catalogue.js';
import { HyperliquidTrading } from '../../src/venues/hyperliquid/hyperliquid-trading.js';
import { l1ActionHash } from '../../src/venues/hyperliquid/replay/signatures.js';
import { startHyperliquidReplay, type HyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import { eventually } from '../support/venue-gateway.js';

/**
 * The Hyperliquid routed venue through the real SDK against the wire fake's exchange: every
 * action is signed by a generated API wallet and its signature checked by the fake (the L1
 * "phantom agent" scheme), orders rest, fill, cancel and stream as the venue's do.
 */
const master = privateKeyToAccount(generatePrivateKey());
const agentKey = generatePrivateKey();
const agent = privateKeyToAccount(agentKey);
const poor = privateKeyToAccount(generatePrivateKey());
const poorAgent = privateKeyToAccount(generatePrivateKey());
const ACCOUNT = 'acct-1';

let fake: HyperliquidReplay;
let venue: HyperliquidTrading;
let markets: MarketDefinition[];
let info: InfoClient;
const cache = new MemorySnapshotCache();
const silent = pino({ level: 'silent' });
const opened: HyperliquidTrading[] = [];

function tradingVenue(
  options: { signer?: ReturnType<typeof privateKeyToAccount>; account?: string; network?: 'mainnet' | 'testnet'; budget?: RequestBudget } = {},
) {
  const v = new HyperliquidTrading(
    'hyperliquid',
    {
      network: options.network ?? 'testnet',
      apiUrl: fake.httpUrl,
      wsUrl: fake.wsUrl,
      timeoutMs: 1_500,
      orders: { account: (options.account ?? master.address).toLowerCase() as `0x${string}`, boundAccount: ACCOUNT, signer: options.signer ?? agent },
    },
    { markets: () => markets, logger: silent, ...(options.budget ? { budget: options.budget } : {}) },
  );
  opened.push(v);
  return v;
}

beforeAll(async () => {
  fake = await startHyperliquidReplay({
    perpCount: 30,
    trading: {
      accounts: [
        { address: master.address, agents: [agent.address], usdc: '100000' },
        { address: poor.address, agents: [poorAgent.address], usdc: '5' },
      ],
    },
  });
  info = new InfoClient({ transport: new HttpTransport({ apiUrl: fake.httpUrl, isTestnet: true }) });
  markets = perpCatalogue((await info.meta()).universe as UniverseAsset[], 'hyperliquid').markets;
  venue = tradingVenue();
});
afterAll(async () => {
  await fake?.close();
});

/** The venue's book of `coin` now, in the cache a quote reads. */
async function ctx(coin = 'BTC'): Promise<VenueContext> {
  const book = await info.l2Book({ coin });
  const side = (levels: { px: string; sz: string }[]) => {
    let total = '0';
    return levels.map((l) => ({ price: l.px, size: l.sz, cumulativeSize: (total = sumDecimals([total, l.sz])) }));
  };
  await cache.putOrderBook({
    marketId: `${coin}-PERP`,
    bids: side(book!.levels[0]),
    asks: side(book!.levels[1]),
    sourceTime: book!.time,
    receivedAt: Date.now(),
  });
  return { reader: undefined as never, cache, now: Date.now(), balances: {} };
}

const limit = (
  referenceId: string,
  price: string,
  overrides: Partial<NonNullable<ExecutionInstruction['metadata']>> & { amount?: string; coin?: string } = {},
): ExecutionInstruction => {
  const { amount = '0.01', coin = 'BTC', ...metadata } = overrides;
  return {
    protocol: 'hyperliquid',
    action: 'place_order',
    assetIn: { token: coin, amount },
    metadata: { side: 'buy', type: 'limit', price, timeInForce: 'gtc', ...metadata },
    referenceId,
  };
};

const market = (referenceId: string, amount: string, side: 'buy' | 'sell' = 'buy'): ExecutionInstruction => ({
  protocol: 'hyperliquid',
  action: 'place_order',
  assetIn: { token: 'BTC', amount },
  metadata: { side, type: 'market' },
  referenceId,
});

/** The order venue-submission builds from a previewed instruction (market orders: the slippage bound on the quote). */
function routed(v: HyperliquidTrading, i: ExecutionInstruction, quote: Quote): RoutedOrder {
  const m = i.metadata!;
  const side = m.side!;
  return {
    clientOrderId: v.clientOrderIdFor(ACCOUNT, i.referenceId),
    accountId: ACCOUNT,
    market: v.marketFor(i),
    side,
    amount: quote.amount,
    type: m.type!,
    price: m.type === 'limit' ? m.price! : slippageBound(quote.price!, side, m.slippageBps),
    timeInForce: m.timeInForce ?? (m.type === 'limit' ? 'gtc' : 'ioc'),
    instruction: i,
    quote,
  };
}

async function previewAndPlace(v: HyperliquidTrading, i: ExecutionInstruction): Promise<RoutedOrderState> {
  const quote = await v.quote(i, await ctx(i.assetIn.token));
  return v.place(routed(v, i, quote));
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

const fakeOrder = (cloid: string) => fake.controls.orders(master.address).find((o) => o.cloid === cloid);

describe('signatures and readiness', () => {
  it('the fake hashes an L1 action as the SDK does, written independently (msgpack, nonce, vault flag, expiresAfter)', () => {
    const actions = [
      {
        type: 'order',
        orders: [{ a: 0, b: true, p: '30000.5', s: '0.001', r: false, t: { limit: { tif: 'Gtc' } }, c: `0x${'ab'.repeat(16)}` }],
        grouping: 'na',
      },
      { type: 'cancel', cancels: [{ a: 3, o: 296683658818 }] },
      { type: 'cancelByCloid', cancels: [{ asset: 300, cloid: `0x${'cd'.repeat(16)}` }] },
    ];
    const nonce = Date.now();
    const vaultAddress = `0x${'12'.repeat(20)}` as const;
    for (const action of actions) {
      expect(l1ActionHash(action, nonce)).toBe(createL1ActionHash({ action, nonce }));
      expect(l1ActionHash(action, nonce, vaultAddress, nonce + 5_000)).toBe(createL1ActionHash({ action, nonce, vaultAddress, expiresAfter: nonce + 5_000 }));
    }
  });

  it('the fake recovers each action’s signer; an API wallet the account never approved is refused as the venue refuses it, and readiness says so', async () => {
    expect(await venue.readiness()).toEqual({ ready: true });
    const strangerKey = generatePrivateKey();
    const stranger = tradingVenue({ signer: privateKeyToAccount(strangerKey) });
    const readiness = await stranger.readiness();
    expect(readiness).toMatchObject({ ready: false, reason: expect.stringMatching(/is not an approved agent of/) });
    expect(JSON.stringify(readiness)).not.toContain(strangerKey.slice(2));
    const err = await caught(previewAndPlace(stranger, limit('stranger-1', '29000')));
    expect(err).toBeInstanceOf(VenueRefusal);
    expect(err).toMatchObject({
      code: 'VENUE_UNHEALTHY',
      reason: `User or API Wallet ${privateKeyToAccount(strangerKey).address.toLowerCase()} does not exist.`,
    });
    // A preview with a wallet the venue does not know is not tradable: it would be refused.
    const quote = await stranger.quote(limit('stranger-2', '29000'), await ctx());
    expect(quote.tradable).toMatchObject({ ok: false, reason: expect.stringMatching(/not an approved agent/) });
  });

  it('an approved agent’s action signed for the other network recovers to another address: refused', async () => {
    const mainnet = tradingVenue({ network: 'mainnet' });
    const err = await caught(previewAndPlace(mainnet, limit('wrong-network', '29000')));
    expect(err).toMatchObject({ code: 'VENUE_UNHEALTHY', reason: expect.stringMatching(/^User or API Wallet 0x[0-9a-f]{40} does not exist\.$/) });
    expect((err as VenueRefusal).reason).not.toContain(agent.address.toLowerCase());
  });
});

describe('orders at the venue', () => {
  it('a good-till-cancelled limit that does not cross rests: open, under its cloid', async () => {
    const i = limit('rest-1', '29000');
    const quote = await venue.quote(i, await ctx());
    expect(quote).toMatchObject({ price: '29000', notionalUsd: '290.00', changes: {}, mayGoNegative: [], tradable: { ok: true }, insufficient: null });
    expect(quote.expectedFill).toMatchObject({ state: 'open', filledAmount: '0' }); // it rests in full: executable
    const state = await venue.place(routed(venue, i, quote));
    const cloid = venue.clientOrderIdFor(ACCOUNT, 'rest-1');
    expect(cloid).toMatch(/^0x[0-9a-f]{32}$/);
    expect(state).toMatchObject({ clientOrderId: cloid, status: 'open', filledAmount: '0', venueOrderId: expect.stringMatching(/^\d+$/) });
    expect(fakeOrder(cloid)).toMatchObject({ status: 'open', limitPx: '29000', sz: '0.01', tif: 'Gtc', side: 'B', coin: 'BTC' });
    expect(await venue.lookup(cloid)).toMatchObject({ status: 'open', venueOrderId: state.venueOrderId });
    expect(await venue.lookup(venue.clientOrderIdFor(ACCOUNT, 'never-sent'))).toBeNull();
  });

  it('fills in part as another trader crosses it, seen on the order stream with the fill’s price and fee; cancelled then, keeping what filled', async () => {
    const seen: RoutedOrderState[] = [];
    const stop = venue.follow((s) => seen.push(s));
    try {
      await eventually(() => venue.followAlive(), 5_000, 'the order stream');
      const state = await previewAndPlace(venue, limit('partial-1', '29100', { amount: '0.01' }));
      expect(state.status).toBe('open');
      fake.controls.fillOrder(master.address, state.clientOrderId, { size: '0.004' });
      const partial = await eventually(() => seen.find((s) => s.clientOrderId === state.clientOrderId && s.status === 'partially_filled'), 5_000, 'the fill');
      // A maker fill at its limit price, at the venue's maker fee (0.015 %).
      expect(partial).toMatchObject({ filledAmount: '0.004', averagePrice: '29100', fee: '0.01746', feeToken: 'USDC' });
      const cancelled = await venue.cancel(state.clientOrderId, venue.marketFor(limit('x', '1')));
      expect(cancelled).toMatchObject({ status: 'cancelled', filledAmount: '0.004', averagePrice: '29100', fee: '0.01746' });
      expect(fakeOrder(state.clientOrderId)).toMatchObject({ status: 'canceled', sz: '0.006' });
      await eventually(() => seen.some((s) => s.clientOrderId === state.clientOrderId && s.status === 'cancelled'), 5_000, 'the cancel on the stream');
      // A second cancel: the venue has nothing resting; its record says what became of the order.
      expect(await venue.cancel(state.clientOrderId, venue.marketFor(limit('x', '1')))).toMatchObject({ status: 'cancelled' });
    } finally {
      stop();
    }
    expect(venue.followAlive()).toBe(false);
  });

  it('a post-only limit that crosses: the preview expects the refusal, and the venue refuses it (POLICY_DENIED, nothing placed)', async () => {
    const book = await info.l2Book({ coin: 'BTC' });
    const ask = book!.levels[1][0]!.px;
    const i = limit('alo-1', ask, { timeInForce: 'alo' });
    const quote = await venue.quote(i, await ctx());
    expect(quote.expectedFill).toMatchObject({ state: 'rejected', reason: expect.stringMatching(/Post-only/) });
    const err = await caught(venue.place(routed(venue, i, quote)));
    expect(err).toBeInstanceOf(VenueRefusal);
    expect(err).toMatchObject({
      code: 'POLICY_DENIED',
      reason: expect.stringMatching(/^Post only order would have immediately matched, bbo was .+@.+\. asset=0$/),
    });
    expect(fakeOrder(venue.clientOrderIdFor(ACCOUNT, 'alo-1'))).toBeUndefined();
  });

  it('a market order is an immediate-or-cancel limit on the venue’s ticks: filled, its price and fee from its fills', async () => {
    const i = market('ioc-1', '0.01');
    const quote = await venue.quote(i, await ctx());
    const order = routed(venue, i, quote);
    const state = await venue.place(order);
    expect(state).toMatchObject({ status: 'filled', filledAmount: '0.01', feeToken: 'USDC' });
    const sent = fake.controls
      .requests()
      .filter((r) => r.path === '/exchange')
      .at(-1)!.body as any;
    const p = sent.action.orders[0].p as string;
    // The slippage bound rounded down to five significant figures: bounded, still marketable.
    expect(Number(p)).toBeLessThanOrEqual(Number(order.price));
    expect(p.replace('.', '').replace(/^0+/, '').length).toBeLessThanOrEqual(5);
    expect(sent.action.orders[0].t).toEqual({ limit: { tif: 'Ioc' } });
    const fills = (await info.userFills({ user: master.address })).filter((f) => String(f.oid) === state.venueOrderId);
    expect(fills.length).toBeGreaterThan(0);
    expect(state.fee).toBe(sumDecimals(fills.map((f) => f.fee)));
    expect(Number(state.fee)).toBeCloseTo(Number(state.averagePrice) * 0.01 * 0.00045, 5);
    const account = await venue.account();
    expect(account).toMatchObject({ account: master.address.toLowerCase(), available: { USDC: expect.any(String) }, equity: { USDC: expect.any(String) } });
    expect(account.positions).toContainEqual(expect.objectContaining({ marketId: 'BTC-PERP', size: expect.stringMatching(/^0\.0\d+/) }));
  });

  it('an immediate-or-cancel order larger than the book within its bound: what filled, the rest cancelled by the venue', async () => {
    const i = market('ioc-big', '20', 'sell');
    const state = await previewAndPlace(venue, { ...i, metadata: { ...i.metadata, slippageBps: 1 } });
    expect(state.status).toBe('cancelled');
    expect(Number(state.filledAmount)).toBeGreaterThan(0);
    expect(Number(state.filledAmount)).toBeLessThan(20);
    expect(state.reason).toMatch(/the venue cancelled the rest/);
  });

  it('an IOC limit that matches nothing is taken and cancelled by the venue: rejected with its reason (not an error)', async () => {
    const state = await previewAndPlace(venue, limit('ioc-none', '20000', { timeInForce: 'ioc' }));
    expect(state).toMatchObject({ status: 'rejected', filledAmount: '0', reason: 'Order could not immediately match against any resting orders. asset=0' });
  });
});

describe('the venue’s rules, checked at preview', () => {
  const refused = async (i: ExecutionInstruction) => {
    const err = await caught(venue.quote(i, await ctx(i.assetIn.token)));
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  };

  it('tick: decimals past 6 − szDecimals, significant figures past five (integers always pass)', async () => {
    const decimals = await refused(limit('tick-1', '29000.55'));
    expect(decimals).toMatchObject({ status: 400, code: 'invalid_request', options: { details: { field: 'metadata.price' } } });
    expect(decimals.message).toMatch(/tick rule allows at most 1 for BTC \(6 − szDecimals 5/);
    const figures = await refused(limit('tick-2', '1850.55', { coin: 'ETH', amount: '0.1' }));
    expect(figures.message).toMatch(/6 significant figures: Hyperliquid's tick rule allows at most 5/);
    await expect(venue.quote(limit('tick-3', '29001'), await ctx())).resolves.toMatchObject({ price: '29001' });
  });

  it('lot size (szDecimals) and the $10 minimum, each named', async () => {
    const lot = await refused(limit('lot-1', '29000', { amount: '0.000001' }));
    expect(lot).toMatchObject({ status: 400, code: 'invalid_request', options: { details: { field: 'assetIn.amount' } } });
    expect(lot.message).toMatch(/lot size for BTC is szDecimals 5/);
    const small = await refused(limit('min-1', '29000', { amount: '0.0003' }));
    expect(small.message).toMatch(/worth 8\.70 USD: Hyperliquid's minimum order value is \$10/);
    const leverage = await refused(limit('lev-1', '29000', { leverage: 5 }));
    expect(leverage.message).toMatch(/metadata.leverage/);
  });

  it('margin: an account without enough free collateral is insufficient at preview, and the venue refuses the order (INSUFFICIENT_BALANCE)', async () => {
    const broke = tradingVenue({ account: poor.address, signer: poorAgent });
    const i = limit('margin-1', '29000');
    const quote = await broke.quote(i, await ctx());
    expect(quote.insufficient).toMatch(/needs 14\.50 USDC of initial margin at 20x; the Hyperliquid account has 5\.00 USDC free/);
    const err = await caught(broke.place(routed(broke, i, quote)));
    expect(err).toMatchObject({ code: 'INSUFFICIENT_BALANCE', reason: 'Insufficient margin to place order. asset=0' });
  });

  it('a venue rule the preview cannot see (a price band) is POLICY_DENIED with the venue’s words', async () => {
    fake.controls.rejectNextOrder('Order price cannot be more than 80% away from the reference price');
    const err = await caught(previewAndPlace(venue, limit('band-1', '29000')));
    expect(err).toMatchObject({ code: 'POLICY_DENIED', reason: 'Order price cannot be more than 80% away from the reference price' });
  });
});

describe('what the venue does not say', () => {
  it('429 with Retry-After: VENUE_UNHEALTHY, retryable after the venue’s seconds; nothing placed', async () => {
    fake.controls.rateLimitNext(1, 7, { path: '/exchange' });
    const err = await caught(previewAndPlace(venue, limit('limited-1', '29000')));
    expect(err).toBeInstanceOf(VenueRefusal);
    expect(err).toMatchObject({ code: 'VENUE_UNHEALTHY', options: { retryable: true, retryAfterSeconds: 7 } });
    expect(fakeOrder(venue.clientOrderIdFor(ACCOUNT, 'limited-1'))).toBeUndefined();
  });

  it('every trading request is charged to the venue’s weight budget at the venue’s weight; a 429 pauses the budget by its Retry-After', async () => {
    const budget = new RequestBudget(1_200);
    const charged = tradingVenue({ budget });
    const book = await ctx();
    fake.controls.clearRequests(); // only the adapter's requests from here
    const i = limit('charged-1', '29000');
    const state = await charged.place(routed(charged, i, await charged.quote(i, book)));
    await charged.lookup(state.clientOrderId);
    const sent = fake.controls.requests();
    expect(sent.map((r) => r.type)).toEqual(expect.arrayContaining(['order', 'orderStatus']));
    // What the fake counted for them, as the venue counts weight per IP: the budget holds the same.
    const venueWeight = sent.reduce((sum, r) => sum + r.weight, 0);
    expect(venueWeight).toBeGreaterThan(0);
    expect(budget.spentLastMinute()).toBe(venueWeight);
    expect(budget.chargedLastMinute()).toBe(venueWeight);

    fake.controls.rateLimitNext(1, 7, { path: '/exchange' });
    await caught(previewAndPlace(charged, limit('charged-2', '29000')));
    // Paused: the data's requests on this budget wait out the venue's seven seconds.
    const started = Date.now();
    let went = 0;
    void budget
      .take(2)
      .then(() => (went = Date.now()))
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(went).toBe(0);
    budget.close();
    expect(Date.now() - started).toBeLessThan(7_000);
  });

  it('no answer within the timeout after the venue took it: outcome unknown, then the lookup by cloid finds it', async () => {
    fake.controls.hangNextExchange('placed');
    const err = await caught(previewAndPlace(venue, limit('hung-1', '29000')));
    expect(err).toBeInstanceOf(VenueOutcomeUnknown);
    expect(await venue.lookup(venue.clientOrderIdFor(ACCOUNT, 'hung-1'))).toMatchObject({ status: 'open', filledAmount: '0' });
    fake.controls.hangNextExchange('lost');
    expect(await caught(previewAndPlace(venue, limit('hung-2', '29000')))).toBeInstanceOf(VenueOutcomeUnknown);
    expect(await venue.lookup(venue.clientOrderIdFor(ACCOUNT, 'hung-2'))).toBeNull();
  });

  it('every action expires: one reaching the venue past its expiresAfter is refused, so an order never lands after the reconciler gave up on it', async () => {
    const i = limit('expired-1', '29000');
    const quote = await venue.quote(i, await ctx());
    fake.controls.setClockOffset(120_000); // the venue's clock two minutes ahead: as if the request arrived that late
    try {
      const err = await caught(venue.place(routed(venue, i, quote)));
      expect(err).toMatchObject({ code: 'VENUE_UNHEALTHY', reason: 'Action already expired' });
    } finally {
      fake.controls.setClockOffset(0);
    }
    const sent = fake.controls
      .requests()
      .filter((r) => r.path === '/exchange')
      .at(-1)!.body as any;
    expect(sent.expiresAfter - sent.nonce).toBeGreaterThan(25_000);
    expect(sent.expiresAfter - sent.nonce).toBeLessThanOrEqual(30_000 + 1_000);
    expect(fakeOrder(venue.clientOrderIdFor(ACCOUNT, 'expired-1'))).toBeUndefined();
  });

  it('the same referenceId twice: one order at the venue, the second answer is the first order', async () => {
    const i = limit('twice-1', '29000');
    const quote = await venue.quote(i, await ctx());
    const first = await venue.place(routed(venue, i, quote));
    const second = await venue.place(routed(venue, i, quote));
    expect(second).toMatchObject({ clientOrderId: first.clientOrderId, venueOrderId: first.venueOrderId, status: 'open' });
    expect(fake.controls.orders(master.address).filter((o) => o.cloid === first.clientOrderId)).toHaveLength(1);
    expect(venue.clientOrderIdFor(ACCOUNT, 'twice-1')).toBe(first.clientOrderId);
    expect(venue.clientOrderIdFor('acct-2', 'twice-1')).not.toBe(first.clientOrderId);
  });

  it('an order of another gateway account is refused: this venue account takes one account’s orders', async () => {
    const i = limit('other-account', '29000');
    const order = { ...routed(venue, i, await venue.quote(i, await ctx())), accountId: 'acct-2' };
    expect(await caught(venue.place(order))).toMatchObject({ code: 'POLICY_DENIED' });
    expect(venue.boundAccount).toBe(ACCOUNT);
  });

  it('the order stream dropped: not alive while it is down, back by itself; what filled meanwhile is looked up and told', async () => {
    const seen: RoutedOrderState[] = [];
    const stop = venue.follow((s) => seen.push(s));
    try {
      await eventually(() => venue.followAlive(), 5_000, 'the order stream');
      const state = await previewAndPlace(venue, limit('drop-1', '29050'));
      await eventually(() => seen.some((s) => s.clientOrderId === state.clientOrderId && s.status === 'open'), 5_000, 'the open order on the stream');
      expect(fake.controls.dropUserStreams({ refuseReconnects: 3 })).toBeGreaterThanOrEqual(1);
      await eventually(() => !venue.followAlive(), 5_000, 'the stream down');
      fake.controls.fillOrder(master.address, state.clientOrderId); // while the stream is down
      await eventually(() => venue.followAlive(), 15_000, 'the stream back');
      const filled = await eventually(() => seen.find((s) => s.clientOrderId === state.clientOrderId && s.status === 'filled'), 5_000, 'the catch-up');
      expect(filled).toMatchObject({ filledAmount: '0.01', averagePrice: '29050' });
    } finally {
      stop();
    }
  });
});
