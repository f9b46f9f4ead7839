/**
 * Part `routed`: orders routed to a real venue, against its wire fake with a fixed round trip
 * (Alpaca paper trading, `ALPACA_ORDERS=paper`), the gateway a separate process configured only
 * by its variables.
 *
 * - Overhead: the venue's own round trip (POST /v2/orders straight to the fake, the same delay)
 *   against an agent key's preview and execute of a resting limit order through the gateway, one
 *   at a time; the gateway's share is the difference of the medians and of the p99s.
 * - The order stream: 1,000 resting orders, then the venue fills every one; the time until the
 *   gateway shows all 1,000 filled, and how many orders it looked up at the venue meanwhile
 *   (the stream should bring every fill: no lookup of each order).
 *
 * The fake runs in this process (it is the venue, not the gateway).
 */
import { startAlpacaReplay, type AlpacaReplay } from '../src/venues/alpaca/replay/alpaca-replay.js';
import { GatewayProcess } from './lib/gateway.js';
import { JsonClient } from './lib/http.js';
import { log, type Row } from './lib/report.js';
import type { Settings } from './lib/settings.js';
import { fmt, percentile, sleep } from './lib/stats.js';
import { walletSession } from './money-path.js';

/** The venue's own round trip the fake adds to every trading request. */
const VENUE_MS = 20;
const SEQUENTIAL = 200;
const WARMUP = 10;
const OPEN_ORDERS = 1_000;
const PLACE_CONCURRENCY = 8;
const GOAL_P50_MS = 5;
const GOAL_P99_MS = 15;

export interface RoutedBench {
  venueMs: number;
  venue: { p50: number; p99: number };
  preview: { p50: number; p99: number };
  execute: { p50: number; p99: number };
  stream: { orders: number; fillToAllFilledMs: number; lookups: number; pollsOfEachOrder: boolean };
}

const stats = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99) });

/** A limit buy far under the market: it rests at the venue. */
const restingOrder = (referenceId: string) => ({
  protocol: 'alpaca',
  action: 'place_order',
  assetIn: { token: 'AAPL', amount: '1' },
  metadata: { side: 'buy', type: 'limit', price: '100', timeInForce: 'gtc' },
  referenceId,
});

export async function routedOrders(_settings: Settings, command: string[]): Promise<RoutedBench> {
  const fake: AlpacaReplay = await startAlpacaReplay({ initialCash: '100000000' });
  // The recordings are old: a trade every half second keeps the quote the preview rests on fresh.
  const ticker = setInterval(() => fake.controls.market.setPrice('AAPL', 161 + Math.random() * 0.2), 500);
  let g: GatewayProcess | undefined;
  try {
    fake.controls.market.setPrice('AAPL', 161.1);
    g = await GatewayProcess.start({
      command,
      env: {
        ALPACA_KEY_ID: fake.credentials.keyId,
        ALPACA_SECRET_KEY: fake.credentials.secret,
        ALPACA_TRADING_URL: fake.urls.trading,
        ALPACA_DATA_URL: fake.urls.data,
        ALPACA_DATA_STREAM_URL: fake.urls.dataStreamHost,
        ALPACA_SYMBOLS: 'AAPL',
        ALPACA_ORDERS: 'paper',
        ALPACA_ORDERS_ACCOUNT: 'bench',
      },
      readyPath: '/api/v1/public/markets/AAPL',
    });
    const client = new JsonClient(g.url, PLACE_CONCURRENCY * 2);
    const key = g.identity.agentKey;
    const session = await walletSession(client, g.identity.wallet);
    await client.expect(200, 'POST', '/api/v1/agent-sessions', session, {
      apiKeyId: g.identity.agentKeyId,
      protocols: ['alpaca'],
      actions: ['place_order'],
      assets: ['AAPL'],
      maxOrderNotional: '1000000',
      maxPeriodNotional: '1000000000',
      periodSeconds: 86_400,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    fake.controls.http.setLatency(VENUE_MS, 'trading');

    // The venue's own round trip: the same order placement, straight to the fake.
    const venueTimes: number[] = [];
    for (let i = 0; i < SEQUENTIAL + WARMUP; i++) {
      const started = performance.now();
      const res = await fake.fetch(`${fake.urls.trading}/v2/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'apca-api-key-id': fake.credentials.keyId, 'apca-api-secret-key': fake.credentials.secret },
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
      if (i >= WARMUP) venueTimes.push(performance.now() - started);
    }

    const previews: number[] = [];
    const executes: number[] = [];
    for (let i = 0; i < SEQUENTIAL + WARMUP; i++) {
      const order = restingOrder(`seq-${i}`);
      const p = await client.expect(200, 'POST', '/api/v1/execute/preview', key, order);
      const e = await client.expect(200, 'POST', '/api/v1/execute', key, order);
      if (e.body.state !== 'open') throw new Error(`expected the order to rest (open), got ${JSON.stringify(e.body).slice(0, 300)}`);
      if (i >= WARMUP) {
        previews.push(p.ms);
        executes.push(e.ms);
      }
    }
    log(
      `routed: venue p50 ${fmt(percentile(venueTimes, 50), 1)} ms; preview p50 ${fmt(percentile(previews, 50), 1)}, execute p50 ${fmt(percentile(executes, 50), 1)} ms`,
    );

    // 1,000 resting orders, then the venue fills them all.
    fake.controls.http.setLatency(0, 'trading');
    const executionIds: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PLACE_CONCURRENCY }, async () => {
        while (next < OPEN_ORDERS) {
          const order = restingOrder(`open-${next++}`);
          await client.expect(200, 'POST', '/api/v1/execute/preview', key, order);
          const e = await client.expect(200, 'POST', '/api/v1/execute', key, order);
          executionIds.push(e.body.executionId as string);
        }
      }),
    );
    log(`routed: ${executionIds.length} orders resting; the venue fills them`);
    await sleep(500);
    fake.controls.http.clearRequests();
    const resting = fake.controls.orders
      .all()
      .filter((o) => o.client_order_id.startsWith('gw-') && !['filled', 'canceled', 'rejected', 'expired'].includes(o.status));
    const started = performance.now();
    for (const o of resting) fake.controls.orders.fill(o.id);
    const filled = new Set<string>();
    const deadline = Date.now() + 120_000;
    while (filled.size < executionIds.length) {
      if (Date.now() > deadline) {
        const atVenue: Record<string, number> = {};
        for (const o of fake.controls.orders.all()) if (o.client_order_id.startsWith('gw-')) atVenue[o.status] = (atVenue[o.status] ?? 0) + 1;
        const left = executionIds.find((id) => !filled.has(id))!;
        const sample = (await client.call('GET', `/api/v1/execute/executions/${left}`, key)).body;
        throw new Error(
          `only ${filled.size} of ${executionIds.length} executions filled after 120 s (${resting.length} filled at the venue; ` +
            `venue orders by status ${JSON.stringify(atVenue)}; one left: ${JSON.stringify(sample).slice(0, 400)})`,
        );
      }
      for (const id of executionIds) {
        if (filled.has(id)) continue;
        const e = await client.call('GET', `/api/v1/execute/executions/${id}`, key);
        if (e.body?.state === 'filled') filled.add(id);
      }
    }
    const fillToAllFilledMs = performance.now() - started;
    const lookups = fake.controls.http.requests({ api: 'trading', method: 'GET', path: /^\/v2\/orders/ }).length;
    client.close();
    return {
      venueMs: VENUE_MS,
      venue: stats(venueTimes),
      preview: stats(previews),
      execute: stats(executes),
      stream: { orders: executionIds.length, fillToAllFilledMs, lookups, pollsOfEachOrder: lookups >= executionIds.length },
    };
  } finally {
    clearInterval(ticker);
    await g?.stop();
    await fake.close();
  }
}

export function routedRows(r: RoutedBench): Row[] {
  const over = (x: { p50: number; p99: number }) => ({ p50: x.p50 - r.venue.p50, p99: x.p99 - r.venue.p99 });
  const rows: Row[] = [
    {
      area: 'routed alpaca',
      what: `venue's own round trip (POST /v2/orders to the fake, fixed ${r.venueMs} ms)`,
      figure: `p50 ${fmt(r.venue.p50, 1)} / p99 ${fmt(r.venue.p99, 1)} ms`,
    },
  ];
  for (const [name, x] of [
    ['preview', r.preview],
    ['execute (resting limit order)', r.execute],
  ] as const) {
    const added = over(x);
    rows.push({
      area: 'routed alpaca',
      what: `${name}: gateway added to the venue's round trip (agent key, one at a time)`,
      figure: `p50 +${fmt(added.p50, 1)} / p99 +${fmt(added.p99, 1)} ms (${fmt(x.p50, 1)} / ${fmt(x.p99, 1)} ms in all)`,
      goal: `≤ +${GOAL_P50_MS} / +${GOAL_P99_MS} ms`,
      pass: added.p50 <= GOAL_P50_MS && added.p99 <= GOAL_P99_MS,
    });
  }
  rows.push({
    area: 'routed alpaca',
    what: `order stream: ${r.stream.orders} resting orders filled at the venue`,
    figure: `all filled in the gateway ${fmt(r.stream.fillToAllFilledMs)} ms after; ${r.stream.lookups} order lookups at the venue`,
    goal: 'no lookup of each order',
    pass: !r.stream.pollsOfEachOrder,
  });
  return rows;
}
