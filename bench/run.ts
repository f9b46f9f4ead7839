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
import { moneyPath, moneyRows } from './money-path.js';
import { publicReads, publicRows } from './public-reads.js';
import { subscriptionRows, subscriptions } from './subscriptions.js';

async function main(): Promise<void> {
  const started = new Date();
  const command = gatewayCommand(settings.gatewayCmd);
  const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', loadAtStart: load1() };
  log(`bench: parts ${settings.only.join(', ')}; gateway: ${command.join(' ')}; ${machine.cpus} CPUs, load ${machine.loadAtStart}`);
  const rows: Row[] = [];
  const result: Record<string, unknown> = { startedAt: started.toISOString(), machine, settings, gatewayCommand: command };

  if (settings.only.includes('public')) {
    const pub = await publicReads(settings, command);
    result.public = pub;
    rows.push(...publicRows(pub.results, pub.sizes));
  }
  if (settings.only.includes('subs')) {
    const subs = await subscriptions(settings, command);
    result.subscriptions = subs;
    rows.push(...subscriptionRows(subs));
  }
  if (settings.only.includes('money')) {
    const money = await moneyPath(settings, command);
    result.money = money;
    rows.push(...moneyRows(money));
  }

  const finished = new Date();
  Object.assign(result, { finishedAt: finished.toISOString(), durationSeconds: (finished.getTime() - started.getTime()) / 1000, loadAtEnd: load1(), rows });
  const dir = join(ROOT, settings.resultsDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `\nTrading gateway bench, ${started.toISOString()}: Node ${machine.node}, ${machine.cpus} × ${machine.cpuModel}, ` +
      `load ${machine.loadAtStart} → ${load1()}, ${Math.round((finished.getTime() - started.getTime()) / 1000)} s\n` +
      `figures: gateway / baseline where both; medians of ${settings.runs} runs × ${settings.duration} s at ${settings.connections} connections\n\n` +
      `${table(rows)}\n\nFull result: ${file}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
