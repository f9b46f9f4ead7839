/**
 * Part `routed`: orders routed to a real venue, against its wire fake with a fixed round trip, the
 * gateway a separate process configured only by its variables; once per venue (routed-venues.ts):
 * Alpaca paper trading (`ALPACA_ORDERS=paper`) and Hyperliquid testnet (an API wallet's key).
 *
 * - Overhead: the venue's own round trip (the same order placement straight to the fake, the same
 *   delay) against an agent key's preview and execute of a resting limit order through the
 *   gateway, one at a time; the gateway's share is the difference of the medians and of the p99s.
 * - The order stream: 1,000 resting orders, then the venue fills every one; the time until the
 *   gateway shows all 1,000 filled, and how many orders it looked up at the venue meanwhile
 *   (the stream should bring every fill: no lookup of each order).
 *
 * The fake runs in this process (it is the venue, not the gateway).
 */
import { GatewayProcess } from './lib/gateway.js';
import { JsonClient } from './lib/http.js';
import { log, type Row } from './lib/report.js';
import type { Settings } from './lib/settings.js';
import { fmt, percentile, sleep } from './lib/stats.js';
import { walletSession } from './money-path.js';
import { startRoutedVenue, type RoutedVenueName } from './routed-venues.js';

/** The venue's own round trip the fake adds to every request an order makes. */
const VENUE_MS = 20;
const SEQUENTIAL = 200;
const WARMUP = 10;
const OPEN_ORDERS = 1_000;
const PLACE_CONCURRENCY = 8;
const GOAL_P50_MS = 5;
const GOAL_P99_MS = 15;

export interface RoutedBench {
  venueName: string;
  /** How the venue's own round trip was measured. */
  venueWhat: string;
  venueMs: number;
  venue: { p50: number; p99: number };
  preview: { p50: number; p99: number };
  execute: { p50: number; p99: number };
  stream: { orders: number; fillToAllFilledMs: number; lookups: number; pollsOfEachOrder: boolean };
}

const stats = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99) });

export async function routedOrders(_settings: Settings, command: string[], venueName: RoutedVenueName): Promise<RoutedBench> {
  const venue = await startRoutedVenue[venueName](VENUE_MS);
  const ticker = setInterval(() => venue.tick(), 500);
  const say = (message: string) => log(`routed ${venue.name}: ${message}`);
  let g: GatewayProcess | undefined;
  try {
    venue.tick();
    g = await GatewayProcess.start({ command, env: venue.env, readyPath: venue.readyPath });
    const setup = new JsonClient(g.url, 1);
    const key = g.identity.agentKey;
    const session = await walletSession(setup, g.identity.wallet);
    await setup.expect(200, 'POST', '/api/v1/agent-sessions', session, {
      apiKeyId: g.identity.agentKeyId,
      protocols: [venue.protocol],
      actions: ['place_order'],
      assets: [venue.asset],
      maxOrderNotional: '1000000',
      maxPeriodNotional: '1000000000',
      periodSeconds: 86_400,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    /** A limit buy far under the market: it rests at the venue. */
    const restingOrder = (referenceId: string) => ({
      protocol: venue.protocol,
      action: 'place_order',
      assetIn: { token: venue.asset, amount: venue.resting.amount },
      metadata: { side: 'buy', type: 'limit', price: venue.resting.price, timeInForce: 'gtc' },
      referenceId,
    });
    // The venue's market streamed (a fresh quote) before anything is timed: a new referenceId each
    // try, as a preview of the same one is answered again as it was.
    const deadline = Date.now() + 30_000;
    for (let attempt = 0; ; attempt++) {
      const p = await setup.call('POST', '/api/v1/execute/preview', key, restingOrder(`ready-${attempt}`));
      if (p.status === 200 && p.body.executable === true) break;
      if (Date.now() > deadline)
        throw new Error(`the gateway does not preview the order as executable after 30 s: ${JSON.stringify(p.body?.gates ?? p.body).slice(0, 400)}`);
      await sleep(250);
    }
    // Closed: its sockets would idle through the venue's own round trips past the gateway's keep-alive timeout (5 s).
    setup.close();
    venue.setLatency(VENUE_MS);

    // The venue's own round trip: the same order placement, straight to the fake.
    const direct = await venue.direct(SEQUENTIAL + WARMUP);
    const venueTimes: number[] = [];
    for (let i = 0; i < SEQUENTIAL + WARMUP; i++) {
      const started = performance.now();
      await direct(i);
      if (i >= WARMUP) venueTimes.push(performance.now() - started);
    }

    const client = new JsonClient(g.url, PLACE_CONCURRENCY * 2);
    const previews: number[] = [];
    const executes: number[] = [];
    for (let i = 0; i < SEQUENTIAL + WARMUP; i++) {
      const order = restingOrder(`seq-${i}`);
      const p = await client.expect(200, 'POST', '/api/v1/execute/preview', key, order);
      if (p.body.executable !== true) throw new Error(`expected an executable preview, got ${JSON.stringify(p.body).slice(0, 300)}`);
      const e = await client.expect(200, 'POST', '/api/v1/execute', key, order);
      if (e.body.state !== 'open') throw new Error(`expected the order to rest (open), got ${JSON.stringify(e.body).slice(0, 300)}`);
      if (i >= WARMUP) {
        previews.push(p.ms);
        executes.push(e.ms);
      }
    }
    say(
      `venue p50 ${fmt(percentile(venueTimes, 50), 1)} ms; preview p50 ${fmt(percentile(previews, 50), 1)}, execute p50 ${fmt(percentile(executes, 50), 1)} ms`,
    );

    // 1,000 resting orders, then the venue fills them all.
    venue.setLatency(0);
    const executionIds: string[] = [];
    const clientOrderIds: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PLACE_CONCURRENCY }, async () => {
        while (next < OPEN_ORDERS) {
          const order = restingOrder(`open-${next++}`);
          await client.expect(200, 'POST', '/api/v1/execute/preview', key, order);
          const e = await client.expect(200, 'POST', '/api/v1/execute', key, order);
          executionIds.push(e.body.executionId as string);
          clientOrderIds.push(e.body.order.clientOrderId as string);
        }
      }),
    );
    say(`${executionIds.length} orders resting; the venue fills them`);
    await sleep(500);
    venue.clearRequests();
    const started = performance.now();
    const filledAtVenue = venue.fill(clientOrderIds);
    if (filledAtVenue !== clientOrderIds.length)
      throw new Error(
        `the venue found ${filledAtVenue} of the ${clientOrderIds.length} orders resting (gateway orders by status ${JSON.stringify(venue.byStatus())})`,
      );
    const filled = new Set<string>();
    const fillDeadline = Date.now() + 120_000;
    while (filled.size < executionIds.length) {
      if (Date.now() > fillDeadline) {
        const left = executionIds.find((id) => !filled.has(id))!;
        const sample = (await client.call('GET', `/api/v1/execute/executions/${left}`, key)).body;
        throw new Error(
          `only ${filled.size} of ${executionIds.length} executions filled after 120 s (${filledAtVenue} filled at the venue; ` +
            `venue orders by status ${JSON.stringify(venue.byStatus())}; one left: ${JSON.stringify(sample).slice(0, 400)})`,
        );
      }
      for (const id of executionIds) {
        if (filled.has(id)) continue;
        const e = await client.call('GET', `/api/v1/execute/executions/${id}`, key);
        if (e.body?.state === 'filled') filled.add(id);
      }
    }
    const fillToAllFilledMs = performance.now() - started;
    const lookups = venue.lookups();
    client.close();
    return {
      venueName: venue.name,
      venueWhat: venue.directWhat,
      venueMs: VENUE_MS,
      venue: stats(venueTimes),
      preview: stats(previews),
      execute: stats(executes),
      stream: { orders: executionIds.length, fillToAllFilledMs, lookups, pollsOfEachOrder: lookups >= executionIds.length },
    };
  } catch (error) {
    if (g?.lines.length) say(`the gateway's last lines:\n${g.lines.slice(-20).join('\n')}`);
    throw error;
  } finally {
    clearInterval(ticker);
    await g?.stop();
    await venue.close();
  }
}

export function routedRows(r: RoutedBench): Row[] {
  const over = (x: { p50: number; p99: number }) => ({ p50: x.p50 - r.venue.p50, p99: x.p99 - r.venue.p99 });
  const signed = (ms: number) => `${ms < 0 ? '-' : '+'}${fmt(Math.abs(ms), 1)}`;
  const area = `routed ${r.venueName}`;
  const rows: Row[] = [
    {
      area,
      what: `venue's own round trip (${r.venueWhat})`,
      figure: `p50 ${fmt(r.venue.p50, 1)} / p99 ${fmt(r.venue.p99, 1)} ms`,
    },
  ];
  for (const [name, x] of [
    ['preview', r.preview],
    ['execute (resting limit order)', r.execute],
  ] as const) {
    const added = over(x);
    rows.push({
      area,
      what: `${name}: gateway added to the venue's round trip (agent key, one at a time)`,
      figure: `p50 ${signed(added.p50)} / p99 ${signed(added.p99)} ms (${fmt(x.p50, 1)} / ${fmt(x.p99, 1)} ms in all)`,
      goal: `≤ +${GOAL_P50_MS} / +${GOAL_P99_MS} ms`,
      pass: added.p50 <= GOAL_P50_MS && added.p99 <= GOAL_P99_MS,
    });
  }
  rows.push({
    area,
    what: `order stream: ${r.stream.orders} resting orders filled at the venue`,
    figure: `all filled in the gateway ${fmt(r.stream.fillToAllFilledMs)} ms after; ${r.stream.lookups} order lookups at the venue`,
    goal: 'no lookup of each order',
    pass: !r.stream.pollsOfEachOrder,
  });
  return rows;
}
