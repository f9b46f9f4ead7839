/**
 * The venues of part `routed` (routed.ts), each as its wire fake in this process: what the gateway
 * is started with to route its orders there, the limit buy that rests there, the fake's controls
 * the part needs (the fixed round trip, fills, the request log), and the venue's own round trip:
 * the same order placement sent straight to the fake.
 */
import { startAlpacaReplay } from '../src/venues/alpaca/replay/alpaca-replay.js';

export interface RoutedVenue {
  /** `alpaca`: the rows' area is `routed <name>`. */
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

export const ROUTED_VENUES = ['alpaca'] as const;
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

export const startRoutedVenue: Record<RoutedVenueName, (venueMs: number) => Promise<RoutedVenue>> = { alpaca };
