import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { deleteKeys, redisForSuites, TEST_REDIS_URL, uniquePrefix } from './support/redis.js';

/**
 * The graph reads through request-scoped loaders: one dashboard query over every market, with
 * each one's order book, a day of hourly candles and its freshness, costs the same number of
 * Redis commands whatever the number of markets (counted with MONITOR on a real Redis).
 */
const available = await redisForSuites();

const DASHBOARD = `query Dashboard {
  markets { data { id price freshness { stale staleReason sourceStatus }
    orderBook(depth: 10) { bids { price size } asks { price size } }
    history(resolution: "1h", limit: 24) { resolution points { time close } }
    protocolDetails { id availability } } }
}`;

const prefixes: string[] = [];
afterAll(async () => {
  if (available) await deleteKeys(TEST_REDIS_URL, prefixes);
});

/** The larger catalogue of the comparison; GRAPH_BATCH_MARKETS=200 measures a perps venue's size (slower start). */
const LARGE = Number(process.env.GRAPH_BATCH_MARKETS ?? 40);

async function post(gw: TestGateway, query: string) {
  const res = await gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await res.json()) as { data?: any; errors?: any[] };
}

/** A Redis gateway of `markets` markets on a prefix of its own; both tests query the same two (starting one writes its history to Redis). */
async function redisGateway(markets: number) {
  const prefix = uniquePrefix(`graph${markets}`);
  prefixes.push(prefix);
  return { prefix, gw: await startGateway({ mode: 'redis', redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefix, simulatedMarkets: markets }) };
}

/** Commands this gateway's keys saw while the query ran (script-internal calls excluded). */
async function commandsFor({ gw, prefix }: { gw: TestGateway; prefix: string }, query = DASHBOARD) {
  const monitor = createClient({ url: TEST_REDIS_URL });
  await monitor.connect();
  try {
    await post(gw, query); // warm the process-local snapshot copies as a running replica has them
    const seen: string[] = [];
    await monitor.monitor((line) => {
      // The reconciler's timer (every 5 s, an SRANDMEMBER of the open executions) is not the query's.
      if (line.includes(prefix) && !line.includes(' lua]') && !/"SRANDMEMBER"/i.test(line)) seen.push(line);
    });
    await new Promise((r) => setTimeout(r, 100));
    const before = seen.length;
    const body = await post(gw, query);
    await new Promise((r) => setTimeout(r, 200));
    return { body, commands: seen.slice(before) };
  } finally {
    monitor.destroy();
  }
}

describe.skipIf(!available)('the dashboard query on Redis', () => {
  let ten: { gw: TestGateway; prefix: string };
  let large: { gw: TestGateway; prefix: string };
  beforeAll(async () => {
    [ten, large] = await Promise.all([redisGateway(10), redisGateway(LARGE)]);
  }, 120_000);
  afterAll(async () => {
    await ten?.gw.close();
    await large?.gw.close();
  });

  it('answers books, candles and freshness for every market in a constant number of round trips', async () => {
    const small = await commandsFor(ten);
    const many = await commandsFor(large);
    expect(small.body.errors).toBeUndefined();
    expect(many.body.errors).toBeUndefined();
    expect(small.body.data.markets.data).toHaveLength(10);
    expect(many.body.data.markets.data).toHaveLength(LARGE);
    const btc = small.body.data.markets.data.find((m: any) => m.id === 'BTC-PERP');
    expect(btc.orderBook.bids.length).toBeLessThanOrEqual(10);
    expect(btc.orderBook.bids.length).toBeGreaterThan(0);
    expect(btc.history).toMatchObject({ resolution: '1h' });
    expect(btc.history.points.length).toBeGreaterThan(20);
    expect(btc.protocolDetails.id).toBeTruthy();
    console.log(
      `dashboard query: ${small.commands.length} Redis commands for 10 markets, ${many.commands.length} for ${LARGE}:\n${many.commands.map((c) => c.slice(0, 90)).join('\n')}`,
    );
    expect(many.commands.length, [...small.commands, '--', ...many.commands].join('\n')).toBe(small.commands.length);
    expect(small.commands.length).toBeLessThanOrEqual(4);
  }, 60_000);

  it('answers the market graph, with correlations from the daily candles of every market, in a constant number of round trips', async () => {
    const query = '{ marketGraph(windowDays: 30) { data { nodes { id } edges { kind source target correlation observations } } } }';
    const small = await commandsFor(ten, query);
    const many = await commandsFor(large, query);
    expect(small.body.errors).toBeUndefined();
    expect(many.body.errors).toBeUndefined();
    const correlations = (body: any) => body.data.marketGraph.data.edges.filter((e: any) => e.kind === 'correlation');
    expect(correlations(small.body)).toHaveLength((10 * 9) / 2);
    expect(correlations(many.body).length).toBeGreaterThan(10 * 9);
    console.log(`market graph: ${small.commands.length} Redis commands for 10 markets, ${many.commands.length} for ${LARGE}`);
    expect(many.commands.length, [...small.commands, '--', ...many.commands].join('\n')).toBe(small.commands.length);
    expect(small.commands.length).toBeLessThanOrEqual(4);
  }, 60_000);
});
