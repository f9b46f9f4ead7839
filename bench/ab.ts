/**
 * `npm run bench:ab`: the public reads of two gateway builds measured in one run, so a change is
 * judged against what it changed on the same machine at the same moment (a shared machine's load
 * moves between runs far more than a refactor moves the figures). Each round runs every target
 * against A then B (the order alternating between rounds), each a separate process, same settings
 * and bytes; medians over the rounds; B/A for req/s and for gateway CPU per request.
 *
 *   BENCH_AB_A='node /path/to/before/dist/src/main.js' BENCH_AB_B='node dist/src/main.js' npm run bench:ab
 *   (BENCH_RUNS rounds, BENCH_DURATION s each, BENCH_CONNECTIONS, BENCH_MARKETS: the catalogue sizes)
 */
import './lib/cleanup.js';
import { GatewayProcess } from './lib/gateway.js';
import { loadRun, type LoadRun } from './lib/load.js';
import { log, table, type Row } from './lib/report.js';
import { settings } from './lib/settings.js';
import { fmt, median } from './lib/stats.js';
import { PUBLIC_TARGETS } from './public-reads.js';

const commandOf = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the command that starts build ${name.slice(-1)}`);
  return value.split(/\s+/).filter(Boolean);
};

async function main(): Promise<void> {
  const commands = { A: commandOf('BENCH_AB_A'), B: commandOf('BENCH_AB_B') };
  const rows: Row[] = [];
  for (const [index, markets] of settings.markets.entries()) {
    const targets = PUBLIC_TARGETS.filter((t) => index === 0 || t.scaling);
    const gateways = { A: await GatewayProcess.start({ command: commands.A, markets }), B: await GatewayProcess.start({ command: commands.B, markets }) };
    try {
      const runs = new Map<string, { A: LoadRun[]; B: LoadRun[] }>(targets.map((t) => [t.label, { A: [], B: [] }]));
      for (const t of targets) {
        for (const side of ['A', 'B'] as const) {
          const g = gateways[side];
          await loadRun(g.url + t.path, g.pid, { connections: settings.connections, duration: settings.warmup, headers: headersOf(t.encoding) });
        }
      }
      for (let round = 0; round < settings.runs; round++) {
        for (const t of targets) {
          for (const side of round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
            const g = gateways[side];
            const run = await loadRun(g.url + t.path, g.pid, {
              connections: settings.connections,
              duration: settings.duration,
              headers: headersOf(t.encoding),
            });
            runs.get(t.label)![side].push(run);
            log(
              `ab ${markets} markets, round ${round + 1}/${settings.runs} ${side} ${t.label.padEnd(24)} ${fmt(run.reqPerSec)} req/s ${fmt(run.cpuUsPerReq)} µs CPU/req`,
            );
          }
        }
      }
      for (const t of targets) {
        const { A, B } = runs.get(t.label)!;
        const [aRps, bRps] = [median(A.map((r) => r.reqPerSec)), median(B.map((r) => r.reqPerSec))];
        const [aCpu, bCpu] = [median(A.map((r) => r.cpuUsPerReq)), median(B.map((r) => r.cpuUsPerReq))];
        const failures = [...A, ...B].reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
        rows.push({
          area: `ab ${markets} mkts`,
          what: `GET ${t.label}`,
          figure: `B/A ${fmt(bRps / aRps, 3)}× req/s (${fmt(aRps)} → ${fmt(bRps)}); CPU ${fmt(aCpu, 1)} → ${fmt(bCpu, 1)} µs/req (${fmt(bCpu / aCpu, 3)}×)`,
          goal: 'B ≥ 0.95 × A',
          pass: failures === 0 && bRps >= 0.95 * aRps,
        });
      }
    } finally {
      await Promise.all([gateways.A.stop(), gateways.B.stop()]);
    }
  }
  process.stdout.write(
    `\nA: ${commands.A.join(' ')}\nB: ${commands.B.join(' ')}\nmedians of ${settings.runs} alternated rounds × ${settings.duration} s at ${settings.connections} connections\n\n${table(rows)}\n`,
  );
}

function headersOf(encoding: string): Record<string, string> | undefined {
  return encoding ? { 'accept-encoding': encoding } : undefined;
}

await main();
