/**
 * Public Sofa routes through the real gateway against a plain node:http baseline serving the same
 * snapshot (see bench/README.md). A measurement, not a test: it exits 0 unless something breaks.
 *
 *   npm run bench
 *   GATEWAY_PUBLIC_FAST_PATH=false npm run bench     # the Yoga + Sofa path alone
 *   BENCH_DURATION=5 BENCH_RUNS=3 BENCH_CONNECTIONS=20 BENCH_WARMUP=3 BENCH_CPU_PROF=bench/profiles npm run bench
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const settings = {
  duration: envNumber('BENCH_DURATION', 5),
  runs: envNumber('BENCH_RUNS', 3),
  connections: envNumber('BENCH_CONNECTIONS', 20),
  warmup: envNumber('BENCH_WARMUP', 3),
  cpuProfDir: process.env.BENCH_CPU_PROF,
};
const ROUTES = ['/api/v1/public/markets', '/api/v1/public/markets/BTC'] as const;
const TARGETS = ['gateway', 'baseline'] as const;
type Target = (typeof TARGETS)[number];
type Urls = Record<Target | 'stats', string>;

interface ServerStats {
  memory: NodeJS.MemoryUsage;
  cpu: NodeJS.CpuUsage;
}

interface Run {
  reqPerSec: number;
  p50: number;
  p99: number;
  /**
   * Server CPU per request. Less sensitive than req/s to other load on the machine, which only
   * makes the server wait; it includes ingest, which runs under both targets alike.
   */
  cpuUsPerReq: number;
  /** A run with non-2xx responses, socket errors or timeouts is not a clean figure. */
  non2xx: number;
  errors: number;
}

/** Medians of one target's runs on one route. */
interface Summary {
  reqPerSec: number;
  p50: number;
  p99: number;
  cpu: number;
  flag: string;
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The servers get a process of their own: with two cores, in-process autocannon would take the server's CPU. */
async function startServers(): Promise<{ child: ChildProcess; urls: Urls }> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const profile = settings.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.cpuProfDir}`] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', ...profile, 'bench/bench-server.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`bench server exited early with code ${code}`);
  });
  const firstLine = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) return line;
    throw new Error('bench server closed stdout without printing its URLs');
  })();
  const line = await Promise.race([firstLine, exited]);
  exited.catch(() => undefined);
  return { child, urls: JSON.parse(line) as Urls };
}

async function stopServers(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** Keys and value types, recursively; arrays by their first element. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return [value.length > 0 ? shapeOf(value[0]) : 'empty'];
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
  );
}

/** Both targets must answer 200, and with the same body shape, or the ratio means nothing. */
async function checkTargets(urls: Urls): Promise<string[]> {
  const warnings: string[] = [];
  for (const route of ROUTES) {
    const shapes: string[] = [];
    for (const target of TARGETS) {
      const response = await fetch(urls[target] + route);
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${target} ${route} answered ${response.status}: ${body.slice(0, 200)}`);
      shapes.push(JSON.stringify(shapeOf(JSON.parse(body))));
    }
    if (shapes[0] !== shapes[1]) warnings.push(`${route}: gateway and baseline bodies differ in shape, so the baseline is not the same answer`);
  }
  return warnings;
}

async function stats(urls: Urls): Promise<ServerStats> {
  return (await (await fetch(urls.stats)).json()) as ServerStats;
}

async function load(urls: Urls, target: Target, route: string, duration: number): Promise<Run> {
  const before = await stats(urls);
  const result = await autocannon({ url: urls[target] + route, connections: settings.connections, duration });
  const after = await stats(urls);
  const cpuUs = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerReq: cpuUs / Math.max(1, result.requests.total),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function report(runs: Map<string, Run[]>, memory: NodeJS.MemoryUsage[]): void {
  const fixed = (n: number, digits = 0) => n.toFixed(digits);
  const lines = [
    '| route | gateway req/s | p50 ms | p99 ms | CPU µs/req | baseline req/s | p50 ms | p99 ms | CPU µs/req | req/s ratio | CPU ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const verdicts: string[] = [];
  for (const route of ROUTES) {
    const [gateway, baseline] = TARGETS.map((target) => {
      const list = runs.get(`${target} ${route}`) ?? [];
      const failures = list.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      return {
        reqPerSec: median(list.map((r) => r.reqPerSec)),
        p50: median(list.map((r) => r.p50)),
        p99: median(list.map((r) => r.p99)),
        cpu: median(list.map((r) => r.cpuUsPerReq)),
        flag: failures > 0 ? ` (${failures} failed!)` : '',
      };
    }) as [Summary, Summary];
    const ratio = gateway.reqPerSec / baseline.reqPerSec;
    // Baseline CPU over gateway CPU, so that both ratios read "fraction of the baseline".
    const cpuRatio = baseline.cpu / gateway.cpu;
    const cells = (s: Summary) => `${fixed(s.reqPerSec)}${s.flag} | ${fixed(s.p50)} | ${fixed(s.p99)} | ${fixed(s.cpu)}`;
    lines.push(`| GET ${route} | ${cells(gateway)} | ${cells(baseline)} | ${fixed(ratio, 2)} | ${fixed(cpuRatio, 2)} |`);
    verdicts.push(
      `${route}: gateway/baseline ${fixed(ratio, 2)} ${ratio >= 0.8 ? 'meets 0.8' : ratio >= 0.5 ? 'meets 0.5, not yet 0.8' : 'is BELOW the 0.5 target'}`,
    );
  }
  const mb = (pick: (m: NodeJS.MemoryUsage) => number) => fixed(median(memory.map(pick)) / 2 ** 20, 1);
  console.log(`\nMedians of ${settings.runs} runs × ${settings.duration} s, ${settings.connections} connections:\n`);
  console.log(lines.join('\n'));
  console.log(`\n${verdicts.join('\n')}`);
  console.log(
    `\nServer process after each run (median): rss ${mb((m) => m.rss)} MB, heapUsed ${mb((m) => m.heapUsed)} MB, heapTotal ${mb((m) => m.heapTotal)} MB`,
  );
}

const load1 = () => loadavg()[0]!.toFixed(2);

async function main(): Promise<void> {
  console.log(`Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${new Date().toISOString()}, load ${load1()}`);
  console.log(`Gateway public fast path: ${process.env.GATEWAY_PUBLIC_FAST_PATH === 'false' ? 'off (Yoga + Sofa)' : 'on'}`);
  // Anything else on the machine competes with both processes and makes req/s noisy.
  if (loadavg()[0]! > 0.5) console.warn('WARNING the machine is not idle: req/s will be noisy; compare CPU µs/req.');
  const { child, urls } = await startServers();
  try {
    for (const warning of await checkTargets(urls)) console.warn(`WARNING ${warning}`);
    for (const route of ROUTES) for (const target of TARGETS) await load(urls, target, route, settings.warmup);

    const runs = new Map<string, Run[]>();
    const memory: NodeJS.MemoryUsage[] = [];
    // Targets alternate within each run so drift (ingest, GC, other load) hits both alike.
    for (let i = 1; i <= settings.runs; i++) {
      for (const route of ROUTES) {
        for (const target of TARGETS) {
          const run = await load(urls, target, route, settings.duration);
          runs.set(`${target} ${route}`, [...(runs.get(`${target} ${route}`) ?? []), run]);
          console.log(
            `run ${i}/${settings.runs} ${target.padEnd(8)} ${route.padEnd(28)} ${run.reqPerSec.toFixed(0).padStart(6)} req/s` +
              `  p50 ${run.p50} ms  p99 ${run.p99} ms  ${run.cpuUsPerReq.toFixed(0)} µs CPU/req` +
              (run.non2xx + run.errors > 0 ? `  FLAGGED: ${run.non2xx} non-2xx, ${run.errors} errors/timeouts` : ''),
          );
        }
      }
      memory.push((await stats(urls)).memory);
    }
    report(runs, memory);
    console.log(`Load average at the end: ${load1()}`);
  } finally {
    await stopServers(child);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
