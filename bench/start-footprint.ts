/**
 * Start and memory of one gateway per catalogue size: time from spawn to the first 200 of
 * /api/v1/public/status, RSS then, the first (cold) history reads of the last listed market, and
 * RSS and CPU after a settling time (a deferred candle backfill drains in the background).
 *
 *   npx tsx bench/start-footprint.ts [sizes=10,200,1000] [settleSeconds=90]
 * BENCH_GATEWAY_CMD as for `npm run bench`. Prints one JSON line per size (progress to stderr).
 */
import { cpuMicros, load1 } from './lib/proc.js';
import { GatewayProcess, gatewayCommand } from './lib/gateway.js';

const sizes = (process.argv[2] ?? '10,200,1000').split(',').map(Number);
const settleSeconds = Number(process.argv[3] ?? 90);
const command = gatewayCommand(process.env.BENCH_GATEWAY_CMD);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

async function timedGet(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t = performance.now();
  const r = await fetch(url);
  const body = await r.arrayBuffer();
  return { ms: Math.round(performance.now() - t), status: r.status, bytes: body.byteLength };
}

for (const markets of sizes) {
  const load = load1();
  const started = Date.now();
  const gateway = await GatewayProcess.start({ command, markets });
  const startMs = Date.now() - started;
  const rssAtStart = gateway.rss();
  await sleep(3_000);
  const rssIdle = gateway.rss();
  const list = (await (await fetch(`${gateway.url}/api/v1/public/markets`)).json()) as { data: { id: string }[] };
  const last = list.data[list.data.length - 1]!.id;
  const cold = {
    day: await timedGet(`${gateway.url}/api/v1/public/markets/${last}/history?resolution=1d&limit=366`),
    hour: await timedGet(`${gateway.url}/api/v1/public/markets/${last}/history?resolution=1h&limit=24`),
    minute: await timedGet(`${gateway.url}/api/v1/public/markets/${last}/history?resolution=1m&limit=60`),
  };
  const warm = await timedGet(`${gateway.url}/api/v1/public/markets/${last}/history?resolution=1d&limit=366`);
  const cpuBefore = cpuMicros(gateway.pid);
  const rssSeries: number[] = [];
  for (let s = 0; s < settleSeconds; s += 5) {
    await sleep(5_000);
    rssSeries.push(mb(gateway.rss()));
  }
  const cpuSettle = (cpuMicros(gateway.pid) - cpuBefore) / 1e6;
  const line = {
    markets: gateway.markets,
    load1: load,
    startMs,
    rssAtStartMB: mb(rssAtStart),
    rssIdleMB: mb(rssIdle),
    cold,
    warm,
    settleSeconds,
    settleCpuSeconds: Math.round(cpuSettle * 10) / 10,
    rssSettledMB: rssSeries[rssSeries.length - 1],
    rssSeriesMB: rssSeries,
  };
  console.log(JSON.stringify(line));
  await gateway.stop();
}
