/**
 * Part 2: N subscribers to `marketUpdated(asset: "BTC")` on one gateway process, held by several
 * client processes (bench/sub-client.ts). Per event: publish → receipt latency over every receipt
 * and the share of subscribers that got it; gateway RSS per idle subscriber; gateway CPU per
 * delivered message. In the Redis variant the subscribers are spread over two gateway processes on
 * one private redis-server: the first leads ingestion, and its updates reach both replicas'
 * subscribers through Redis pub/sub.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { track } from './lib/cleanup.js';
import { GatewayProcess, PrivateRedis, ROOT, startReplicas } from './lib/gateway.js';
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

/** The subscribers of one Redis replica and what they received. */
export interface ReplicaReceipts {
  role: 'leader' | 'follower';
  subscribers: number;
  latency: Spread;
  /** The median of the windows' p99 for this replica's subscribers. */
  windowP99: number;
}

export interface SubscriptionResult {
  transport: 'ws' | 'sse';
  /** One embedded gateway, or two Redis replicas sharing the subscribers (`replicas`). */
  mode: 'embedded' | 'redis';
  /** Redis: per replica (the ingest leader first). */
  replicas?: ReplicaReceipts[];
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
  /** Gateway RSS (every gateway's together in the Redis variant). */
  rssBeforeBytes: number;
  rssAfterBytes: number;
  bytesPerSubscriber: number;
  /** Gateway CPU over the window (every gateway's), less its CPU before the subscribers opened, per message delivered. */
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

async function measure(
  settings: Settings,
  command: string[],
  transport: 'ws' | 'sse',
  n: number,
  mode: 'embedded' | 'redis' = 'embedded',
): Promise<SubscriptionResult> {
  const markets = settings.markets[0]!;
  const redis = mode === 'redis' ? await PrivateRedis.start() : undefined;
  const gateways: GatewayProcess[] = [];
  const clients: ClientProcess[] = [];
  const name = `subs ${transport} ${n}${redis ? ' redis' : ''}`;
  try {
    if (redis) {
      const { leader, follower } = await startReplicas({ command, markets }, redis);
      gateways.push(leader, follower);
    } else gateways.push(await GatewayProcess.start({ command, markets }));
    const gateway = gateways[0]!;
    const fields = await marketFields(gateway);
    const producedAt = fields.has('producedAt');
    const query = `subscription { marketUpdated(asset: "BTC") { id price freshness { asOf freshnessMs }${producedAt ? ' producedAt' : ''} } }`;
    const urlOf = (g: GatewayProcess) => (transport === 'ws' ? `ws://127.0.0.1:${g.port}/graphql` : `${g.url}/graphql`);
    // Client i holds its subscribers on gateway i mod the gateways: the replicas share them evenly.
    const count = Math.min(Math.max(settings.subClients, gateways.length), n);
    const replicaOf = (client: number) => client % gateways.length;
    for (let i = 0; i < count; i++) clients.push(await ClientProcess.start(i));
    const shares = clients.map((_, i) => Math.floor(n / count) + (i < n % count ? 1 : 0));
    const perGateway = gateways.map((_, g) => shares.reduce((sum, share, i) => sum + (replicaOf(i) === g ? share : 0), 0));
    const gatewayFdLimit = Math.min(...gateways.map((g) => openFilesLimit(g.pid)));
    if (gatewayFdLimit < Math.max(...perGateway) + 200)
      log(`subs: WARNING a gateway may run out of file descriptors: limit ${gatewayFdLimit} for ${Math.max(...perGateway)} subscribers`);
    const clientFdLimit = Math.min(...clients.map((c) => c.fdLimit));
    if (clientFdLimit < Math.ceil(n / count) + 100) log(`subs: WARNING client fd limit ${clientFdLimit} is below ${Math.ceil(n / count)} sockets per client`);
    const gatewaysCpu = () => gateways.reduce((sum, g) => sum + cpuMicros(g.pid), 0);
    const gatewaysRss = async () => (await Promise.all(gateways.map((g) => steadyRss(g)))).reduce((a, b) => a + b, 0);

    const open = async (perClient: number[]) => {
      const reports = (await Promise.all(
        clients.map((c, i) =>
          c.ask({
            type: 'open',
            url: urlOf(gateways[replicaOf(i)]!),
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
    const idleFrom = gatewaysCpu();
    const idleStarted = Date.now();
    await sleep(3_000);
    const idleCpuPerMs = (gatewaysCpu() - idleFrom) / (Date.now() - idleStarted);
    const rssBefore = await gatewaysRss();
    const openStarted = Date.now();
    const ticker = setInterval(() => {
      const ok = clients.reduce((s, c) => s + c.progress.ok, 0);
      const failed = clients.reduce((s, c) => s + c.progress.failed, 0);
      log(`${name}: opening, ${warm.ok + ok} open, ${failed} failed, ${fmt((Date.now() - openStarted) / 1000)} s`);
    }, 10_000);
    const rest = await open(shares.map((s, i) => s - warmupShares[i]!)).finally(() => clearInterval(ticker));
    const openSeconds = (Date.now() - openStarted) / 1000;
    const opened = warm.ok + rest.ok;
    log(
      `${name}: ${opened} open in ${fmt(openSeconds, 1)} s (${warm.failed + rest.failed} failed, ${rest.notAttempted} not attempted before the deadline)` +
        `${rest.errors.length ? `: ${rest.errors.slice(0, 3).join('; ')}` : ''}`,
    );
    await sleep(SETTLE_MS);
    const rssAfter = await gatewaysRss();
    const gatewayOpenFiles = Math.max(...gateways.map((g) => openFiles(g.pid)));

    // Several windows on the same open subscribers: the p99 goal is judged on their median, as the
    // public reads are on the median of several runs (one window can catch a GC or an ingest round).
    const latencies: number[] = [];
    const fromIngest: number[] = [];
    const perEvent = new Map<number, number>();
    const windows: Spread[] = [];
    const clientCpu: number[] = [];
    const collectedErrors: string[] = [];
    const replicaLatencies = gateways.map(() => [] as number[]);
    const replicaWindows = gateways.map(() => [] as Spread[]);
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
      const cpuBefore = gatewaysCpu();
      await sleep(settings.subEvents * 1_000);
      const toMs = Date.now();
      cpu += Math.max(0, gatewaysCpu() - cpuBefore - idleCpuPerMs * (toMs - fromMs));
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
      const replicaInWindow = gateways.map(() => [] as number[]);
      for (const [c, report] of collected.entries()) {
        const r = report.receipts;
        const ofReplica = replicaInWindow[replicaOf(c)]!;
        for (let i = 0; i < r.length; i += 3) {
          const asOf = r[i]!;
          const latency = r[i + 2]! - r[i + 1]!;
          inWindow.push(latency);
          ofReplica.push(latency);
          fromIngest.push(r[i + 2]! - asOf);
          perEvent.set(asOf, (perEvent.get(asOf) ?? 0) + 1);
        }
      }
      replicaInWindow.forEach((values, g) => {
        for (const l of values) replicaLatencies[g]!.push(l);
        replicaWindows[g]!.push(spread(values));
      });
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
        `${name}: window ${w + 1}/${settings.subWindows}, publish→receipt p50 ${spreadOfWindow.p50} p99 ${spreadOfWindow.p99} max ${spreadOfWindow.max} ms` +
          (redis ? ` (p99 on the leader ${replicaWindows[0]!.at(-1)!.p99}, on the follower ${replicaWindows[1]!.at(-1)!.p99})` : ''),
      );
    }
    const events = [...perEvent]
      .sort((a, b) => a[0] - b[0])
      .map(([asOf, receipts]) => ({ asOf: new Date(asOf).toISOString(), receipts, fraction: receipts / Math.max(1, opened) }));
    const result: SubscriptionResult = {
      transport,
      mode,
      ...(redis
        ? {
            replicas: gateways.map((_, g) => ({
              role: g === 0 ? ('leader' as const) : ('follower' as const),
              subscribers: perGateway[g]!,
              latency: spread(replicaLatencies[g]!),
              windowP99: median(replicaWindows[g]!.map((w) => w.p99)),
            })),
          }
        : {}),
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
      `${name}: ${events.length} events, publish→receipt p50 ${result.latency.p50} p99 ${result.latency.p99} (median of the windows' ${result.windowP99}) max ${result.latency.max} ms; ` +
        `delivered min ${fmt(result.minFraction * 100, 1)} %; RSS +${fmt((rssAfter - rssBefore) / 2 ** 20, 1)} MB = ${fmt(result.bytesPerSubscriber / 1024, 1)} KB/subscriber`,
    );
    return result;
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
    await Promise.all(gateways.map((g) => g.stop()));
    await redis?.stop();
  }
}

export async function subscriptions(settings: Settings, command: string[]): Promise<SubscriptionResult[]> {
  const results: SubscriptionResult[] = [];
  for (const n of settings.subscribers) results.push(await measure(settings, command, 'ws', n));
  for (const n of settings.sseSubscribers) results.push(await measure(settings, command, 'sse', n));
  for (const n of settings.redisSubscribers) results.push(await measure(settings, command, 'ws', n, 'redis'));
  return results;
}

const LATENCY_GOAL_MS = 200;
/** Issue 27, goal 4: the fleet's fan-out, subscribers over two Redis replicas. */
const REDIS_LATENCY_GOAL_MS = 250;
const MEMORY_GOAL_BYTES = 40 * 1024;
const MEMORY_MIN_SUBSCRIBERS = 1_000;

export function subscriptionRows(results: readonly SubscriptionResult[]): Row[] {
  return results.flatMap((r) => {
    const redis = r.mode === 'redis';
    const name = `${r.transport === 'ws' ? 'graphql-ws' : 'SSE'} ×${r.requested}${redis ? ' over 2 Redis replicas' : ''}`;
    const goalMs = redis ? REDIS_LATENCY_GOAL_MS : LATENCY_GOAL_MS;
    const replicas = (r.replicas ?? []).map((x) => `${x.role} ${x.subscribers} p99 ${fmt(x.windowP99)} ms (all receipts ${fmt(x.latency.p99)})`).join(', ');
    const problems = [
      r.failedToOpen ? `${r.failedToOpen} failed to open` : '',
      r.notAttempted ? `${r.notAttempted} not opened by the deadline` : '',
      r.dropped ? `${r.dropped} dropped` : '',
      r.silentSubscribers ? `${r.silentSubscribers} got nothing` : '',
      r.gatewayFdLimit < Math.max(...(r.replicas?.map((x) => x.subscribers) ?? [r.requested])) + 100 ? `gateway fd limit ${r.gatewayFdLimit} too low` : '',
      r.clientFdLimit < Math.ceil(r.requested / r.clients) + 100 ? `client fd limit ${r.clientFdLimit} too low` : '',
    ].filter(Boolean);
    const complete = r.events.length > 0 && r.failedToOpen === 0 && r.notAttempted === 0;
    return [
      {
        area: `subs${redis ? ' redis' : ''} ${r.markets} mkts`,
        what: `${name}: publish→receipt, ${r.events.length} events`,
        figure:
          `${r.opened} open; p99 ${fmt(r.windowP99)} ms, median of ${r.windows.length} windows (${r.windows.map((w) => fmt(w.p99)).join(', ')}); all receipts p50 ${fmt(r.latency.p50)} / p99 ${fmt(r.latency.p99)} / max ${fmt(r.latency.max)} ms; events reached ${fmt(r.minFraction * 100, 1)} % (worst) / ${fmt(r.medianFraction * 100, 1)} % (median) of them` +
          `${replicas ? `; per replica: ${replicas}` : ''}` +
          `${problems.length ? `; ${problems.join(', ')}` : ''}; ${fmt(r.cpuUsPerDelivery)} µs gateway CPU/msg; busiest client ${fmt(r.clientCpuMax * 100)} % CPU`,
        goal: `p99 ≤ ${goalMs} ms`,
        pass: r.events.length === 0 ? null : r.windowP99 <= goalMs && r.minFraction === 1 && complete,
      },
      {
        area: `subs${redis ? ' redis' : ''} ${r.markets} mkts`,
        what: `${name}: gateway RSS per idle subscriber${redis ? ' (both replicas)' : ''}`,
        figure: `${fmt(r.bytesPerSubscriber / 1024, 1)} KB (RSS ${fmt(r.rssBeforeBytes / 2 ** 20)} → ${fmt(r.rssAfterBytes / 2 ** 20)} MB, ${r.opened} open in ${fmt(r.openSeconds, 1)} s)`,
        // The memory goal is one gateway's; over two replicas it is reported only.
        ...(redis
          ? {}
          : {
              goal: '≤ 40 KB',
              // RSS moves by a few MB on its own (GC, ingest): fewer subscribers than this cannot show 40 KB each.
              pass: r.opened - r.warmup < MEMORY_MIN_SUBSCRIBERS ? null : r.bytesPerSubscriber <= MEMORY_GOAL_BYTES,
            }),
      },
    ];
  });
}
