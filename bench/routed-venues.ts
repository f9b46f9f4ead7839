/**
 * The venues of part `routed` (routed.ts), each as its wire fake in this process: what the gateway
 * is started with to route its orders there, the limit buy that rests there, the fake's controls
 * the part needs (the fixed round trip, fills, the request log), and the venue's own round trip:
 * the same order placement sent straight to the fake.
 */
import { ExchangeClient, type IRequestTransport } from '@nktkas/hyperliquid';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startAlpacaReplay } from '../src/venues/alpaca/replay/alpaca-replay.js';
import { startHyperliquidReplay } from '../src/venues/hyperliquid/replay/start.js';

export interface RoutedVenue {
  /** `alpaca`, `hyperliquid`: the rows' area is `routed <name>`. */
  name: string;
  /** How the venue's own round trip is measured, for its row. */
  directWhat: string;
  /** The gateway's variables: this venue's orders routed for the bench account (`bench`). */
  env: Record<string, string>;
  /** The GET whose first 200 means the gateway lists the venue's market. */
  readyPath: string;
  /** The agent session's protocol and asset. */
  protocol: string;
  asset: string;
  /** A limit buy far under the market, which rests at the venue (passing its price, size and minimum rules). */
  resting: { amount: string; price: string };
  /** Called every half second: keeps the quote the preview rests on fresh. */
  tick(): void;
  /** The fixed venue round trip on every request the gateway's orders make (0: none). */
  setLatency(ms: number): void;
  /** Readies `count` orders sent straight to the venue (untimed); returns the sending of the i-th, the part to time. */
  direct(count: number): Promise<(i: number) => Promise<void>>;
  /** The venue fills these orders of the gateway's (by client order id), each whole; returns how many it filled. */
  fill(clientOrderIds: readonly string[]): number;
  /** The gateway's orders at the venue by status (said when the fills do not all arrive). */
  byStatus(): Record<string, number>;
  clearRequests(): void;
  /** The gateway's look-ups of single orders at the venue since clearRequests. */
  lookups(): number;
  close(): Promise<void>;
}

export const ROUTED_VENUES = ['alpaca', 'hyperliquid'] as const;
export type RoutedVenueName = (typeof ROUTED_VENUES)[number];

const byStatus = (statuses: readonly string[]) => {
  const counts: Record<string, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};

/** Alpaca paper trading (`ALPACA_ORDERS=paper`); the fixed round trip is on its trading API. */
async function alpaca(venueMs: number): Promise<RoutedVenue> {
  const fake = await startAlpacaReplay({ initialCash: '100000000' });
  const { keyId, secret } = fake.credentials;
  const gatewayOrders = () => fake.controls.orders.all().filter((o) => o.client_order_id.startsWith('gw-'));
  return {
    name: 'alpaca',
    directWhat: `POST /v2/orders to the fake, fixed ${venueMs} ms`,
    env: {
      ALPACA_KEY_ID: keyId,
      ALPACA_SECRET_KEY: secret,
      ALPACA_TRADING_URL: fake.urls.trading,
      ALPACA_DATA_URL: fake.urls.data,
      ALPACA_DATA_STREAM_URL: fake.urls.dataStreamHost,
      ALPACA_SYMBOLS: 'AAPL',
      ALPACA_ORDERS: 'paper',
      ALPACA_ORDERS_ACCOUNT: 'bench',
    },
    readyPath: '/api/v1/public/markets/AAPL',
    protocol: 'alpaca',
    asset: 'AAPL',
    resting: { amount: '1', price: '100' },
    // The recordings are old: a trade every half second keeps the quote fresh.
    tick: () => fake.controls.market.setPrice('AAPL', 161 + Math.random() * 0.2),
    setLatency: (ms) => fake.controls.http.setLatency(ms, 'trading'),
    direct: async () => async (i) => {
      const res = await fake.fetch(`${fake.urls.trading}/v2/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'apca-api-key-id': keyId, 'apca-api-secret-key': secret },
        body: JSON.stringify({
          symbol: 'AAPL',
          qty: '1',
          side: 'buy',
          type: 'limit',
          limit_price: '100',
          time_in_force: 'gtc',
          client_order_id: `direct-${i}`,
        }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the fake refused a direct order: ${res.status}`);
    },
    fill: (clientOrderIds) => {
      const wanted = new Set(clientOrderIds);
      const resting = gatewayOrders().filter((o) => wanted.has(o.client_order_id) && !['filled', 'canceled', 'rejected', 'expired'].includes(o.status));
      for (const o of resting) fake.controls.orders.fill(o.id);
      return resting.length;
    },
    byStatus: () => byStatus(gatewayOrders().map((o) => o.status)),
    clearRequests: () => fake.controls.http.clearRequests(),
    lookups: () => fake.controls.http.requests({ api: 'trading', method: 'GET', path: /^\/v2\/orders/ }).length,
    close: () => fake.close(),
  };
}

/** The cloids of the orders the bench sends straight to Hyperliquid: this prefix and the order's number. */
const DIRECT_CLOID = `0x${'d'.repeat(24)}`;

/**
 * Hyperliquid (testnet) with an API wallet of the master account; the fixed round trip is on both
 * /exchange and /info (each is a round trip to the venue). The venue's own round trip is a POST
 * /exchange of the same order signed by a second API wallet of the account, signed before the
 * timed loop: the SDK's ExchangeClient builds and signs each (its own nonce and expiry, as the
 * gateway's), a transport of the bench's keeps its body instead of sending it, and only the
 * sending is timed, with the headers the SDK's HttpTransport sends.
 */
async function hyperliquid(venueMs: number): Promise<RoutedVenue> {
  const master = privateKeyToAccount(generatePrivateKey());
  const agentKey = generatePrivateKey();
  const directAgent = privateKeyToAccount(generatePrivateKey());
  const fake = await startHyperliquidReplay({
    perpCount: 30,
    trading: { accounts: [{ address: master.address, agents: [privateKeyToAccount(agentKey).address, directAgent.address], usdc: '100000000' }] },
  });
  const btc = fake.controls.assetNames().indexOf('BTC');
  const gatewayOrders = () => fake.controls.orders(master.address).filter((o) => !o.cloid?.startsWith(DIRECT_CLOID));
  return {
    name: 'hyperliquid',
    directWhat: `POST /exchange of a pre-signed order to the fake, fixed ${venueMs} ms`,
    env: {
      HYPERLIQUID_NETWORK: 'testnet',
      HYPERLIQUID_API_URL: fake.httpUrl,
      HYPERLIQUID_WS_URL: fake.wsUrl,
      HYPERLIQUID_COINS: 'BTC',
      HYPERLIQUID_AGENT_KEY: agentKey,
      HYPERLIQUID_ACCOUNT: master.address,
      HYPERLIQUID_ORDERS_ACCOUNT: 'bench',
    },
    readyPath: '/api/v1/public/markets/BTC',
    protocol: 'hyperliquid',
    asset: 'BTC',
    // 0.001 BTC at 20,000 ($20, over the $10 minimum), a third under the mid (about 30,135).
    resting: { amount: '0.001', price: '20000' },
    // The venue gate refuses a book older than 5 s, and the fake pushes books only when told.
    tick: () => void fake.controls.pushL2Book('BTC'),
    setLatency: (ms) => fake.controls.setLatency(ms, 'both'),
    direct: async (count) => {
      const bodies: unknown[] = [];
      const keep: IRequestTransport = {
        isTestnet: true,
        request: async <T>(_endpoint: string, payload: unknown) => {
          bodies.push(payload);
          return { status: 'ok', response: { type: 'order', data: { statuses: [{ resting: { oid: 0 } }] } } } as T;
        },
      };
      // Expiring as the gateway's actions do (a minute here: the timed loop must not outlast it).
      const exchange = new ExchangeClient({ transport: keep, wallet: directAgent, defaultExpiresAfter: () => Date.now() + 60_000 });
      for (let i = 0; i < count; i++) {
        const c = `${DIRECT_CLOID}${i.toString(16).padStart(8, '0')}` as `0x${string}`;
        await exchange.order({ orders: [{ a: btc, b: true, p: '20000', s: '0.001', r: false, t: { limit: { tif: 'Gtc' } }, c }], grouping: 'na' });
      }
      const signed = bodies.map((b) => JSON.stringify(b));
      return async (i) => {
        const res = await fetch(`${fake.httpUrl}/exchange`, {
          method: 'POST',
          headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd', 'Content-Type': 'application/json' },
          body: signed[i]!,
        });
        const text = await res.text();
        if (res.status !== 200 || !text.includes('"resting"')) throw new Error(`the fake refused a direct order: ${res.status} ${text.slice(0, 200)}`);
      };
    },
    fill: (clientOrderIds) => {
      const wanted = new Set(clientOrderIds);
      const resting = gatewayOrders().filter((o) => o.cloid !== null && wanted.has(o.cloid) && o.status === 'open');
      for (const o of resting) fake.controls.fillOrder(master.address, o.oid);
      return resting.length;
    },
    byStatus: () => byStatus(gatewayOrders().map((o) => o.status)),
    clearRequests: () => fake.controls.clearRequests(),
    lookups: () => fake.controls.requests().filter((r) => r.path === '/info' && r.type === 'orderStatus').length,
    close: () => fake.close(),
  };
}

export const startRoutedVenue: Record<RoutedVenueName, (venueMs: number) => Promise<RoutedVenue>> = { alpaca, hyperliquid };
