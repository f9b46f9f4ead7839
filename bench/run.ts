/**
 * `npm run bench`: every measurement of bench/README.md against the gateway as a separate process,
 * one final table on stdout, the full result as JSON in bench/results/<timestamp>.json.
 * Select parts and sizes with BENCH_* variables or flags (bench/lib/settings.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import './lib/cleanup.js';
import { gatewayCommand, ROOT } from './lib/gateway.js';
import { load1 } from './lib/proc.js';
import { log, table, type Row } from './lib/report.js';
import { settings } from './lib/settings.js';
import { fmt } from './lib/stats.js';
import { growth, growthRows } from './growth.js';
import { moneyPath, moneyRows } from './money-path.js';
import { peerReads, peerRows } from './peer.js';
import { profile, profileRows } from './profile.js';
import { publicReads, publicRows, redisReadRows } from './public-reads.js';
import { subscriptionRows, subscriptions } from './subscriptions.js';
import { venueReads, venueRows } from './venues.js';
import { routedOrders, routedRows } from './routed.js';
import { ROUTED_VENUES } from './routed-venues.js';

async function main(): Promise<void> {
  const started = new Date();
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const command = gatewayCommand(settings.gatewayCmd);
  const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', loadAtStart: load1() };
  log(`bench: parts ${settings.only.join(', ')}; gateway: ${command.join(' ')}; ${machine.cpus} CPUs, load ${machine.loadAtStart}`);
  const rows: Row[] = [];
  // The machine is shared: its load average over the run says how much the figures can be trusted.
  const loadSamples: number[] = [];
  const sampler = setInterval(() => loadSamples.push(load1()), 10_000);
  sampler.unref();
  const result: Record<string, unknown> = { startedAt: started.toISOString(), machine, settings, gatewayCommand: command };

  // A part that fails is reported as such; the others still run and the result is still written.
  // `label` names one run of a part that runs once per venue, in the result and in a failure's row.
  const part = async <T>(name: string, run: () => Promise<T>, toRows: (value: T) => Row[], label = name): Promise<T | undefined> => {
    if (!settings.only.includes(name as (typeof settings.only)[number])) return undefined;
    try {
      const value = await run();
      result[label] = value;
      rows.push(...toRows(value));
      return value;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`${label}: FAILED: ${error instanceof Error ? error.stack : message}`);
      result[label] = { error: message };
      rows.push({ area: label, what: 'part failed', figure: message.split('\n')[0]!.slice(0, 160), pass: false });
      process.exitCode = 1;
      return undefined;
    }
  };
  const pub = await part(
    'public',
    () => publicReads(settings, command),
    (p) => [...publicRows(p.results, p.sizes), ...redisReadRows(p.redis)],
  );
  await part('peer', () => peerReads(settings, command), peerRows);
  const subs = await part('subs', () => subscriptions(settings, command), subscriptionRows);
  await part('money', () => moneyPath(settings, command), moneyRows);
  await part('profile', () => profile(settings, command, stamp), profileRows);
  await part('venues', () => venueReads(settings, command), venueRows);
  for (const venue of ROUTED_VENUES) await part('routed', () => routedOrders(settings, command, venue), routedRows, `routed ${venue}`);

  const grown = growth(pub?.results ?? [], pub?.sizes ?? [], subs ?? []);
  result.growth = grown;
  rows.push(...growthRows(grown, pub?.sizes ?? []));
  clearInterval(sampler);
  const loads = loadSamples.length ? loadSamples : [load1()];
  const load = { min: Math.min(...loads), max: Math.max(...loads), mean: loads.reduce((a, b) => a + b, 0) / loads.length };

  const finished = new Date();
  Object.assign(result, { finishedAt: finished.toISOString(), durationSeconds: (finished.getTime() - started.getTime()) / 1000, load, rows });
  const dir = join(ROOT, settings.resultsDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `\nTrading gateway bench, ${started.toISOString()}: Node ${machine.node}, ${machine.cpus} × ${machine.cpuModel}, ` +
      `load average ${fmt(load.min, 1)}–${fmt(load.max, 1)} (mean ${fmt(load.mean, 1)}), ${Math.round((finished.getTime() - started.getTime()) / 1000)} s\n` +
      `figures: gateway / baseline where both; medians of ${settings.runs} runs × ${settings.duration} s at ${settings.connections} connections\n\n` +
      `${table(rows)}\n\nFull result: ${file}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
