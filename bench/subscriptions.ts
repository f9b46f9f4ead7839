/**
 * Part 2: N subscribers to `marketUpdated(asset: "BTC")` on one gateway process, held by several
 * client processes (bench/sub-client.ts). Per event: publish → receipt latency over every receipt
 * and the share of subscribers that got it; gateway RSS per idle subscriber; gateway CPU per
 * delivered message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { track } from './lib/cleanup.js';
import { GatewayProcess, ROOT } from './lib/gateway.js';
import { JsonClient } from './lib/http.js';
import { cpuMicros, openFiles, openFilesLimit } from './lib/proc.js';
import { log, type Row } from './lib/report.js';
import type { Settings } from './lib/settings.js';
import { fmt, median, sleep, spread, type Spread } from './lib/stats.js';
import type { ClientCommand, ClientReport } from './sub-client.js';

const RAISE_FD_LIMIT = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"';
/** Subscribers opened before the "before" memory reading, so one-time costs (first socket, first plan) are not charged per subscriber. */
const WARMUP_PER_CLIENT = 5;
const SETTLE_MS = 3_000;
/** One subscriber not open within this is a failure (the gateway did not accept or acknowledge it). */
const OPEN_TIMEOUT_MS = 30_000;
const DRAIN_MS = 3_000;
const MAX_DRAIN_MS = 60_000;
/** Source addresses the clients bind to in turn (all of 127/8 reaches the loopback on Linux). */
const LOCAL_ADDRESSES = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];

export interface SubscriptionResult {
  transport: 'ws' | 'sse';
  requested: number;
  opened: number;
  /** Of `opened`, those opened before the "before" memory reading (not in the per-subscriber figure). */
  warmup: number;
  failedToOpen: number;
  /** Subscribers not started before BENCH_SUB_OPEN_DEADLINE. */
  notAttempted: number;
  openSeconds: number;
  markets: number;
  clients: number;
  /** Payload fields used as the publish time. */
  publishTimeFrom: string;
  /** Per event: receipts, and their share of the subscribers that were open. */
  events: { asOf: string; receipts: number; fraction: number }[];
  /** ms from publish to receipt, over every receipt of every window. */
  latency: Spread;
  /** The same per measurement window (BENCH_SUB_WINDOWS windows of BENCH_SUB_EVENTS seconds each). */
  windows: Spread[];
  /** The median of the windows' p99: what the goal is judged on. */
  windowP99: number;
  /** ms from the snapshot's ingest (freshness.asOf) to receipt. */
  fromIngest: Spread;
  minFraction: number;
  medianFraction: number;
  silentSubscribers: number;
  dropped: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  bytesPerSubscriber: number;
  /** Gateway CPU over the window, less its CPU before the subscribers opened, per message delivered. */
  cpuUsPerDelivery: number;
  /** The busiest client process's CPU over the window and drain, as a share of one core. */
  clientCpuMax: number;
  gatewayFdLimit: number;
  gatewayOpenFiles: number;
  clientFdLimit: number;
  errors: string[];
}

class ClientProcess {
  private readonly waiting: ((report: ClientReport) => void)[] = [];
  fdLimit = Number.NaN;

  private constructor(
    readonly proc: ChildProcess,
    readonly index: number,
  ) {
    proc.on('message', (report: ClientReport) => {
      if (report.type === 'progress') this.progress = report;
      else this.waiting.shift()?.(report);
    });
  }

  progress = { ok: 0, failed: 0 };

  static async start(index: number): Promise<ClientProcess> {
    const proc = track(
      spawn('sh', ['-c', RAISE_FD_LIMIT, 'sh', process.execPath, '--max-old-space-size=4096', '--import', 'tsx', 'bench/sub-client.ts'], {
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    const client = new ClientProcess(proc, index);
    const ready = (await client.next()) as Extract<ClientReport, { type: 'ready' }>;
    client.fdLimit = ready.fdLimit;
    return client;
  }

  private next(): Promise<ClientReport> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`subscription client exited with ${code}`));
      this.proc.once('exit', onExit);
      this.waiting.push((report) => {
        this.proc.off('exit', onExit);
        resolve(report);
      });
    });
  }

  ask(command: ClientCommand): Promise<ClientReport> {
    const reply = this.next();
    this.proc.send(command);
    return reply;
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    if (this.proc.connected) this.proc.send({ type: 'close' } satisfies ClientCommand);
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Median of a few RSS readings, 300 ms apart (one reading can catch a GC in the middle). */
async function steadyRss(gateway: GatewayProcess): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    readings.push(gateway.rss());
    await sleep(300);
  }
  return median(readings);
}

/** A `producedAt` field on Market, if the gateway has added one, is the better publish time. */
async function marketFields(gateway: GatewayProcess): Promise<Set<string>> {
  const client = new JsonClient(gateway.url, 1);
  try {
    const res = await client.call('POST', '/graphql', undefined, { query: '{ __type(name: "Market") { fields { name } } }' });
    return new Set(((res.body?.data?.__type?.fields ?? []) as { name: string }[]).map((f) => f.name));
  } catch {
    return new Set();
  } finally {
    client.close();
  }
}

async function measure(settings: Settings, command: string[], transport: 'ws' | 'sse', n: number): Promise<SubscriptionResult> {
  const gateway = await GatewayProcess.start({ command, markets: settings.markets[0]! });
  const clients: ClientProcess[] = [];
  try {
    const fields = await marketFields(gateway);
    const producedAt = fields.has('producedAt');
    const query = `subscription { marketUpdated(asset: "BTC") { id price freshness { asOf freshnessMs }${producedAt ? ' producedAt' : ''} } }`;
    const url = transport === 'ws' ? `ws://127.0.0.1:${gateway.port}/graphql` : `${gateway.url}/graphql`;
    const count = Math.min(settings.subClients, n);
    for (let i = 0; i < count; i++) clients.push(await ClientProcess.start(i));
    const gatewayFdLimit = openFilesLimit(gateway.pid);
    if (gatewayFdLimit < n + 200) log(`subs: WARNING the gateway may run out of file descriptors: limit ${gatewayFdLimit} for ${n} subscribers`);
    const clientFdLimit = Math.min(...clients.map((c) => c.fdLimit));
    if (clientFdLimit < Math.ceil(n / count) + 100) log(`subs: WARNING client fd limit ${clientFdLimit} is below ${Math.ceil(n / count)} sockets per client`);

    const shares = clients.map((_, i) => Math.floor(n / count) + (i < n % count ? 1 : 0));
    const open = async (perClient: number[]) => {
      const reports = (await Promise.all(
        clients.map((c, i) =>
          c.ask({
            type: 'open',
            url,
            transport,
            count: perClient[i]!,
            query,
            field: 'marketUpdated',
            localAddresses: LOCAL_ADDRESSES,
            concurrency: transport === 'ws' ? 64 : 32,
            openTimeoutMs: OPEN_TIMEOUT_MS,
            deadlineMs: settings.subOpenDeadline * 1000,
          }),
        ),
      )) as Extract<ClientReport, { type: 'opened' }>[];
      return {
        ok: reports.reduce((s, r) => s + r.ok, 0),
        failed: reports.reduce((s, r) => s + r.failed, 0),
        notAttempted: reports.reduce((s, r) => s + r.notAttempted, 0),
        errors: reports.flatMap((r) => r.errors),
      };
    };

    const warmupShares = shares.map((s) => Math.min(WARMUP_PER_CLIENT, s));
    const warm = await open(warmupShares);
    // The gateway's CPU without (many) subscribers: ingest, timers. Subtracted from the window's.
    const idleFrom = cpuMicros(gateway.pid);
    const idleStarted = Date.now();
    await sleep(3_000);
    const idleCpuPerMs = (cpuMicros(gateway.pid) - idleFrom) / (Date.now() - idleStarted);
    const rssBefore = await steadyRss(gateway);
    const openStarted = Date.now();
    const ticker = setInterval(() => {
      const ok = clients.reduce((s, c) => s + c.progress.ok, 0);
      const failed = clients.reduce((s, c) => s + c.progress.failed, 0);
      log(`subs ${transport} ${n}: opening, ${warm.ok + ok} open, ${failed} failed, ${fmt((Date.now() - openStarted) / 1000)} s`);
    }, 10_000);
    const rest = await open(shares.map((s, i) => s - warmupShares[i]!)).finally(() => clearInterval(ticker));
    const openSeconds = (Date.now() - openStarted) / 1000;
    const opened = warm.ok + rest.ok;
    log(
      `subs ${transport} ${n}: ${opened} open in ${fmt(openSeconds, 1)} s (${warm.failed + rest.failed} failed, ${rest.notAttempted} not attempted before the deadline)` +
        `${rest.errors.length ? `: ${rest.errors.slice(0, 3).join('; ')}` : ''}`,
    );
    await sleep(SETTLE_MS);
    const rssAfter = await steadyRss(gateway);
    const gatewayOpenFiles = openFiles(gateway.pid);

    // Several windows on the same open subscribers: the p99 goal is judged on their median, as the
    // public reads are on the median of several runs (one window can catch a GC or an ingest round).
    const latencies: number[] = [];
    const fromIngest: number[] = [];
    const perEvent = new Map<number, number>();
    const windows: Spread[] = [];
    const clientCpu: number[] = [];
    const collectedErrors: string[] = [];
    let cpu = 0;
    let deliveries = 0;
    let silent = 0;
    let dropped = 0;
    for (let w = 0; w < settings.subWindows; w++) {
      const clientCpuBefore = (await Promise.all(clients.map((c) => c.ask({ type: 'count', fromMs: 0, toMs: 0 })))) as Extract<
        ClientReport,
        { type: 'count' }
      >[];
      const fromMs = Date.now();
      const cpuBefore = cpuMicros(gateway.pid);
      await sleep(settings.subEvents * 1_000);
      const toMs = Date.now();
      cpu += Math.max(0, cpuMicros(gateway.pid) - cpuBefore - idleCpuPerMs * (toMs - fromMs));
      const clientCpuAfter = (await Promise.all(clients.map((c) => c.ask({ type: 'count', fromMs: 0, toMs: 0 })))) as Extract<
        ClientReport,
        { type: 'count' }
      >[];
      // Share of one core each client process used over the window: near 1 would make the clients the bottleneck.
      clientCpu.push(...clientCpuAfter.map((c, i) => (c.cpuUs - clientCpuBefore[i]!.cpuUs) / ((Date.now() - fromMs) * 1000)));
      // Late receipts still count: wait until no more arrive (at least DRAIN_MS, at most MAX_DRAIN_MS).
      const drainStarted = Date.now();
      let seen = -1;
      for (;;) {
        await sleep(DRAIN_MS / 2);
        const counts = (await Promise.all(clients.map((c) => c.ask({ type: 'count', fromMs, toMs })))) as Extract<ClientReport, { type: 'count' }>[];
        const total = counts.reduce((s, c) => s + c.receipts, 0);
        if ((total === seen && Date.now() - drainStarted >= DRAIN_MS) || Date.now() - drainStarted > MAX_DRAIN_MS) break;
        seen = total;
      }
      const collected = (await Promise.all(clients.map((c) => c.ask({ type: 'collect', fromMs, toMs })))) as Extract<ClientReport, { type: 'receipts' }>[];
      const inWindow: number[] = [];
      for (const report of collected) {
        const r = report.receipts;
        for (let i = 0; i < r.length; i += 3) {
          const asOf = r[i]!;
          inWindow.push(r[i + 2]! - r[i + 1]!);
          fromIngest.push(r[i + 2]! - asOf);
          perEvent.set(asOf, (perEvent.get(asOf) ?? 0) + 1);
        }
      }
      for (const l of inWindow) latencies.push(l);
      deliveries += inWindow.length;
      // A subscriber silent in any window, or a drop in any, is reported (the largest seen).
      silent = Math.max(
        silent,
        collected.reduce((s, r) => s + r.silent, 0),
      );
      dropped = Math.max(
        dropped,
        collected.reduce((s, r) => s + r.dropped, 0),
      );
      collectedErrors.push(...collected.flatMap((c) => c.errors));
      const spreadOfWindow = spread(inWindow);
      windows.push(spreadOfWindow);
      log(
        `subs ${transport} ${n}: window ${w + 1}/${settings.subWindows}, publish→receipt p50 ${spreadOfWindow.p50} p99 ${spreadOfWindow.p99} max ${spreadOfWindow.max} ms`,
      );
    }
    const events = [...perEvent]
      .sort((a, b) => a[0] - b[0])
      .map(([asOf, receipts]) => ({ asOf: new Date(asOf).toISOString(), receipts, fraction: receipts / Math.max(1, opened) }));
    const result: SubscriptionResult = {
      transport,
      requested: n,
      opened,
      warmup: warm.ok,
      failedToOpen: warm.failed + rest.failed,
      notAttempted: rest.notAttempted,
      openSeconds,
      markets: gateway.markets,
      clients: count,
      publishTimeFrom: producedAt ? 'producedAt' : 'freshness.asOf + freshness.freshnessMs',
      events,
      latency: spread(latencies),
      windows,
      windowP99: median(windows.map((w) => w.p99)),
      fromIngest: spread(fromIngest),
      minFraction: events.length ? Math.min(...events.map((e) => e.fraction)) : 0,
      medianFraction: median(events.map((e) => e.fraction)),
      silentSubscribers: silent,
      dropped,
      rssBeforeBytes: rssBefore,
      rssAfterBytes: rssAfter,
      bytesPerSubscriber: (rssAfter - rssBefore) / Math.max(1, rest.ok),
      cpuUsPerDelivery: cpu / Math.max(1, deliveries),
      clientCpuMax: Math.max(...clientCpu),
      gatewayFdLimit,
      gatewayOpenFiles,
      clientFdLimit,
      errors: [...warm.errors, ...rest.errors, ...collectedErrors].slice(0, 20),
    };
    log(
      `subs ${transport} ${n}: ${events.length} events, publish→receipt p50 ${result.latency.p50} p99 ${result.latency.p99} (median of the windows' ${result.windowP99}) max ${result.latency.max} ms; ` +
        `delivered min ${fmt(result.minFraction * 100, 1)} %; RSS +${fmt((rssAfter - rssBefore) / 2 ** 20, 1)} MB = ${fmt(result.bytesPerSubscriber / 1024, 1)} KB/subscriber`,
    );
    return result;
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
    await gateway.stop();
  }
}

export async function subscriptions(settings: Settings, command: string[]): Promise<SubscriptionResult[]> {
  const results: SubscriptionResult[] = [];
  for (const n of settings.subscribers) results.push(await measure(settings, command, 'ws', n));
  for (const n of settings.sseSubscribers) results.push(await measure(settings, command, 'sse', n));
  return results;
}

const LATENCY_GOAL_MS = 200;
const MEMORY_GOAL_BYTES = 40 * 1024;
const MEMORY_MIN_SUBSCRIBERS = 1_000;

export function subscriptionRows(results: readonly SubscriptionResult[]): Row[] {
  return results.flatMap((r) => {
    const name = `${r.transport === 'ws' ? 'graphql-ws' : 'SSE'} ×${r.requested}`;
    const problems = [
      r.failedToOpen ? `${r.failedToOpen} failed to open` : '',
      r.notAttempted ? `${r.notAttempted} not opened by the deadline` : '',
      r.dropped ? `${r.dropped} dropped` : '',
      r.silentSubscribers ? `${r.silentSubscribers} got nothing` : '',
      r.gatewayFdLimit < r.requested + 100 ? `gateway fd limit ${r.gatewayFdLimit} too low` : '',
      r.clientFdLimit < Math.ceil(r.requested / r.clients) + 100 ? `client fd limit ${r.clientFdLimit} too low` : '',
    ].filter(Boolean);
    const complete = r.events.length > 0 && r.failedToOpen === 0 && r.notAttempted === 0;
    return [
      {
        area: `subs ${r.markets} mkts`,
        what: `${name}: publish→receipt, ${r.events.length} events`,
        figure:
          `${r.opened} open; p99 ${fmt(r.windowP99)} ms, median of ${r.windows.length} windows (${r.windows.map((w) => fmt(w.p99)).join(', ')}); all receipts p50 ${fmt(r.latency.p50)} / p99 ${fmt(r.latency.p99)} / max ${fmt(r.latency.max)} ms; events reached ${fmt(r.minFraction * 100, 1)} % (worst) / ${fmt(r.medianFraction * 100, 1)} % (median) of them` +
          `${problems.length ? `; ${problems.join(', ')}` : ''}; ${fmt(r.cpuUsPerDelivery)} µs gateway CPU/msg; busiest client ${fmt(r.clientCpuMax * 100)} % CPU`,
        goal: `p99 ≤ ${LATENCY_GOAL_MS} ms`,
        pass: r.events.length === 0 ? null : r.windowP99 <= LATENCY_GOAL_MS && r.minFraction === 1 && complete,
      },
      {
        area: `subs ${r.markets} mkts`,
        what: `${name}: gateway RSS per idle subscriber`,
        figure: `${fmt(r.bytesPerSubscriber / 1024, 1)} KB (RSS ${fmt(r.rssBeforeBytes / 2 ** 20)} → ${fmt(r.rssAfterBytes / 2 ** 20)} MB, ${r.opened} open in ${fmt(r.openSeconds, 1)} s)`,
        goal: '≤ 40 KB',
        // RSS moves by a few MB on its own (GC, ingest): fewer subscribers than this cannot show 40 KB each.
        pass: r.opened - r.warmup < MEMORY_MIN_SUBSCRIBERS ? null : r.bytesPerSubscriber <= MEMORY_GOAL_BYTES,
      },
    ];
  });
}
