/**
 * Part 1: public GET routes through the gateway process against the wire baseline (a raw
 * node:http process serving the very bytes the gateway answered), autocannon from this process,
 * targets alternating within each round, medians over the runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBaseline, type BaselineEntry } from './lib/baseline.js';
import { GatewayProcess, PrivateRedis, startReplicas } from './lib/gateway.js';
import { rawGet } from './lib/http.js';
import { loadRun, type LoadRun } from './lib/load.js';
import { log, type Row } from './lib/report.js';
import type { Settings } from './lib/settings.js';
import { fmt, median } from './lib/stats.js';

const P = '/api/v1/public';

export interface PublicTarget {
  label: string;
  path: string;
  /** Accept-Encoding sent to both servers ('' for none). */
  encoding: '' | 'br' | 'gzip';
  /** Measured at every catalogue size, not only the first. */
  scaling: boolean;
  /** The gateway's route template in fastify's syntax, for the peer (bench/peer-server.ts). */
  route: string;
}

export const PUBLIC_TARGETS: readonly PublicTarget[] = [
  { label: 'markets', path: `${P}/markets`, encoding: '', scaling: true, route: `${P}/markets` },
  { label: 'markets (br)', path: `${P}/markets`, encoding: 'br', scaling: true, route: `${P}/markets` },
  { label: 'markets (gzip)', path: `${P}/markets`, encoding: 'gzip', scaling: true, route: `${P}/markets` },
  { label: 'markets/BTC', path: `${P}/markets/BTC`, encoding: '', scaling: true, route: `${P}/markets/:asset` },
  { label: 'markets/BTC/history', path: `${P}/markets/BTC/history`, encoding: '', scaling: false, route: `${P}/markets/:asset/history` },
  { label: 'history 1h×24', path: `${P}/markets/BTC/history?resolution=1h&limit=24`, encoding: '', scaling: false, route: `${P}/markets/:asset/history` },
  { label: 'markets/BTC/orderbook', path: `${P}/markets/BTC/orderbook`, encoding: '', scaling: false, route: `${P}/markets/:asset/orderbook` },
  { label: 'protocols/paper-perps', path: `${P}/protocols/paper-perps`, encoding: '', scaling: false, route: `${P}/protocols/:protocol` },
  { label: 'status', path: `${P}/status`, encoding: '', scaling: true, route: `${P}/status` },
  { label: 'data/markets.json', path: `${P}/data/markets.json`, encoding: '', scaling: true, route: `${P}/data/markets.json` },
  { label: 'data/protocols.json', path: `${P}/data/protocols.json`, encoding: '', scaling: false, route: `${P}/data/protocols.json` },
  { label: 'openapi.public.json', path: `${P}/openapi.public.json`, encoding: '', scaling: false, route: `${P}/openapi.public.json` },
];

/** Medians of one server's runs on one target. */
export interface Side {
  reqPerSec: number;
  p50: number;
  p99: number;
  cpuUsPerReq: number;
  clientCpu: number;
  failures: number;
  runs: LoadRun[];
}

export interface PublicResult {
  requestedMarkets: number;
  markets: number;
  label: string;
  path: string;
  encoding: string;
  /** What the gateway answered with: Content-Encoding (identity when none) and body bytes on the wire. */
  contentEncoding: string;
  bodyBytes: number;
  status: number;
  gateway: Side;
  baseline: Side;
  /** gateway req/s ÷ baseline req/s */
  ratio: number;
  /** gateway p99 ÷ baseline p99 */
  p99Ratio: number;
}

export interface CatalogueSize {
  requested: number;
  /** data.counts.markets reported by the gateway started with GATEWAY_SIM_MARKETS=requested. */
  actual: number;
  /** Gateway RSS after start and the pre-fetch, before any load. */
  idleRssBytes: number;
  startMs: number;
  /** Set when the size was not measured (the gateway ignored GATEWAY_SIM_MARKETS and served a size already measured). */
  skipped?: string;
}

/** Hop-by-hop and per-connection headers are the server's own business; every other header is copied. */
export const NOT_COPIED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

export function sideOf(runs: LoadRun[]): Side {
  return {
    reqPerSec: median(runs.map((r) => r.reqPerSec)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUsPerReq: median(runs.map((r) => r.cpuUsPerReq)),
    clientCpu: median(runs.map((r) => r.clientCpu)),
    failures: runs.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
    runs,
  };
}

export const headersFor = (t: PublicTarget) => (t.encoding ? { 'accept-encoding': t.encoding } : undefined);

export async function measureSize(settings: Settings, gateway: GatewayProcess, requested: number, targets: readonly PublicTarget[]): Promise<PublicResult[]> {
  // The gateway's answers, fetched once as raw bytes, become the baseline's answers.
  const entries: BaselineEntry[] = [];
  const fetched = new Map<PublicTarget, { status: number; contentEncoding: string; bodyBytes: number }>();
  for (const t of targets) {
    const res = await rawGet(gateway.url + t.path, headersFor(t) ?? {});
    if (res.status < 200 || res.status > 299) throw new Error(`gateway GET ${t.path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
    const headers = Object.entries(res.headers).flatMap(([k, v]) =>
      NOT_COPIED.has(k) || v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x] as [string, string]),
    );
    entries.push({ url: t.path, acceptEncoding: t.encoding, status: res.status, headers, body: res.body.toString('base64') });
    fetched.set(t, { status: res.status, contentEncoding: String(res.headers['content-encoding'] ?? 'identity'), bodyBytes: res.body.length });
  }
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-baseline-'));
  const baseline = await startBaseline(entries, join(dir, 'responses.json'));
  try {
    for (const [i, t] of targets.entries()) {
      const res = await rawGet(baseline.url + t.path, headersFor(t) ?? {});
      if (!res.body.equals(Buffer.from(entries[i]!.body, 'base64'))) throw new Error(`baseline does not serve the gateway's bytes for ${t.path}`);
    }
    const server = { gateway: { url: gateway.url, pid: gateway.pid }, baseline: { url: baseline.url, pid: baseline.pid } };
    const load = (which: 'gateway' | 'baseline', t: PublicTarget, duration: number) =>
      loadRun(server[which].url + t.path, server[which].pid, {
        connections: settings.connections,
        duration,
        ...(headersFor(t) ? { headers: headersFor(t)! } : {}),
      });

    if (settings.warmup > 0) for (const t of targets) for (const which of ['gateway', 'baseline'] as const) await load(which, t, settings.warmup);
    const runs = new Map<PublicTarget, { gateway: LoadRun[]; baseline: LoadRun[] }>(targets.map((t) => [t, { gateway: [], baseline: [] }]));
    for (let round = 0; round < settings.runs; round++) {
      for (const t of targets) {
        // Alternate which server goes first, so drift within a round hits both alike.
        for (const which of round % 2 === 0 ? (['gateway', 'baseline'] as const) : (['baseline', 'gateway'] as const)) {
          const run = await load(which, t, settings.duration);
          runs.get(t)![which].push(run);
          const failed = run.non2xx + run.errors + run.timeouts;
          log(
            `public ${requested} markets, run ${round + 1}/${settings.runs} ${which.padEnd(8)} ${t.label.padEnd(22)} ${fmt(run.reqPerSec).padStart(6)} req/s ` +
              `p50 ${run.p50} p99 ${run.p99} ms ${fmt(run.cpuUsPerReq)} µs CPU/req client ${fmt(run.clientCpu * 100)} %` +
              (failed ? `  FLAGGED: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts` : ''),
          );
        }
      }
    }
    return targets.map((t) => {
      const r = runs.get(t)!;
      const g = sideOf(r.gateway);
      const b = sideOf(r.baseline);
      const f = fetched.get(t)!;
      return {
        requestedMarkets: requested,
        markets: gateway.markets,
        label: t.label,
        path: t.path,
        encoding: t.encoding || 'none',
        contentEncoding: f.contentEncoding,
        bodyBytes: f.bodyBytes,
        status: f.status,
        gateway: g,
        baseline: b,
        ratio: g.reqPerSec / b.reqPerSec,
        p99Ratio: g.p99 / Math.max(1, b.p99),
      };
    });
  } finally {
    await baseline.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the Redis comparison measures: the single-market read and the list. */
const REPLICA_TARGETS = PUBLIC_TARGETS.filter((t) => t.label === 'markets/BTC' || t.label === 'markets');

/** One target on an embedded gateway and on Redis replicas (the leader ingests, the follower only reads), medians of the runs. */
export interface RedisReadResult {
  markets: number;
  label: string;
  path: string;
  /** Body bytes each side answered with (they differ only by the instant's digits). */
  bodyBytes: Partial<Record<RedisSide, number>>;
  sides: Partial<Record<RedisSide, Side>>;
  /** Each Redis replica's req/s ÷ the embedded gateway's. */
  ratios: Partial<Record<Exclude<RedisSide, 'embedded'>, number>>;
}

export type RedisSide = 'embedded' | 'follower' | 'leader';

/**
 * Issue 27, goal 3: public reads of a Redis replica against an embedded gateway, both at the first
 * catalogue size. A private redis-server, two gateways on it (the first leads ingestion, the
 * second follows), and an embedded gateway; autocannon runs against each in turn within each
 * round (the order reversed every other round), warm-up first. No wire baseline here: the
 * question is what Redis mode costs over embedded mode.
 */
export async function redisReads(settings: Settings, command: string[]): Promise<RedisReadResult[]> {
  const replicas = settings.redisReads;
  if (replicas.length === 0) return [];
  const markets = settings.markets[0]!;
  const redis = await PrivateRedis.start();
  const started: GatewayProcess[] = [];
  try {
    const embedded = await GatewayProcess.start({ command, markets });
    started.push(embedded);
    const { leader, follower } = await startReplicas({ command, markets }, redis);
    started.push(leader, follower);
    const servers: Partial<Record<RedisSide, GatewayProcess>> = { embedded };
    if (replicas.includes('follower')) servers.follower = follower;
    if (replicas.includes('leader')) servers.leader = leader;
    const order = Object.keys(servers) as RedisSide[];
    log(`public redis: ${embedded.markets} markets; embedded and Redis ${order.filter((s) => s !== 'embedded').join(' and ')} (redis-server on ${redis.port})`);
    const bodyBytes = new Map<PublicTarget, Partial<Record<RedisSide, number>>>();
    for (const t of REPLICA_TARGETS) {
      const sizes: Partial<Record<RedisSide, number>> = {};
      for (const side of order) {
        const res = await rawGet(servers[side]!.url + t.path, headersFor(t) ?? {});
        if (res.status !== 200) throw new Error(`${side} GET ${t.path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
        sizes[side] = res.body.length;
      }
      bodyBytes.set(t, sizes);
    }
    const load = (side: RedisSide, t: PublicTarget, duration: number) =>
      loadRun(servers[side]!.url + t.path, servers[side]!.pid, {
        connections: settings.connections,
        duration,
        ...(headersFor(t) ? { headers: headersFor(t)! } : {}),
      });
    if (settings.warmup > 0) for (const t of REPLICA_TARGETS) for (const side of order) await load(side, t, settings.warmup);
    const runs = new Map(REPLICA_TARGETS.map((t) => [t, new Map<RedisSide, LoadRun[]>(order.map((side) => [side, []]))]));
    for (let round = 0; round < settings.runs; round++) {
      for (const t of REPLICA_TARGETS) {
        for (const side of round % 2 === 0 ? order : [...order].reverse()) {
          const run = await load(side, t, settings.duration);
          runs.get(t)!.get(side)!.push(run);
          const failed = run.non2xx + run.errors + run.timeouts;
          log(
            `public redis, run ${round + 1}/${settings.runs} ${side.padEnd(8)} ${t.label.padEnd(12)} ${fmt(run.reqPerSec).padStart(6)} req/s ` +
              `p50 ${run.p50} p99 ${run.p99} ms ${fmt(run.cpuUsPerReq)} µs CPU/req client ${fmt(run.clientCpu * 100)} %` +
              (failed ? `  FLAGGED: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts` : ''),
          );
        }
      }
    }
    return REPLICA_TARGETS.map((t) => {
      const sides: Partial<Record<RedisSide, Side>> = {};
      for (const side of order) sides[side] = sideOf(runs.get(t)!.get(side)!);
      const ratios: RedisReadResult['ratios'] = {};
      for (const side of ['follower', 'leader'] as const) if (sides[side]) ratios[side] = sides[side].reqPerSec / sides.embedded!.reqPerSec;
      return { markets: embedded.markets, label: t.label, path: t.path, bodyBytes: bodyBytes.get(t)!, sides, ratios };
    });
  } finally {
    await Promise.all(started.map((g) => g.stop()));
    await redis.stop();
  }
}

const REDIS_RATIO_GOAL = 0.8;

export function redisReadRows(results: readonly RedisReadResult[]): Row[] {
  return results.flatMap((r) =>
    (['follower', 'leader'] as const).flatMap((side) => {
      const redis = r.sides[side];
      const embedded = r.sides.embedded!;
      if (!redis) return [];
      const failures = redis.failures + embedded.failures;
      const ratio = r.ratios[side]!;
      return [
        {
          area: `public redis ${r.markets} mkts`,
          what: `GET ${r.label}, ${fmt((r.bodyBytes[side] ?? 0) / 1024, 1)} KB: Redis ${side === 'follower' ? 'follower replica' : 'ingest leader'} ÷ embedded`,
          figure:
            `${fmt(redis.reqPerSec)} / ${fmt(embedded.reqPerSec)} req/s = ${fmt(ratio, 2)}×; p99 ${fmt(redis.p99)} / ${fmt(embedded.p99)} ms; ` +
            `${fmt(redis.cpuUsPerReq)} / ${fmt(embedded.cpuUsPerReq)} µs CPU${failures ? `; ${failures} FAILED requests` : ''}`,
          goal: `≥ ${REDIS_RATIO_GOAL}×`,
          pass: ratio >= REDIS_RATIO_GOAL && redis.reqPerSec > 0 && failures === 0,
        },
      ];
    }),
  );
}

export async function publicReads(
  settings: Settings,
  command: string[],
): Promise<{ results: PublicResult[]; sizes: CatalogueSize[]; redis: RedisReadResult[] }> {
  const results: PublicResult[] = [];
  const sizes: CatalogueSize[] = [];
  for (const [index, requested] of settings.markets.entries()) {
    const started = Date.now();
    const gateway = await GatewayProcess.start({ command, markets: requested });
    const size: CatalogueSize = { requested, actual: gateway.markets, idleRssBytes: gateway.rss(), startMs: Date.now() - started };
    sizes.push(size);
    try {
      const already = sizes.find((s) => s !== size && !s.skipped && s.actual === size.actual);
      if (already) {
        size.skipped = `the gateway started with GATEWAY_SIM_MARKETS=${requested} serves ${size.actual} markets, as with ${already.requested}: not measured again`;
        log(`public: ${size.skipped}`);
        continue;
      }
      log(
        `public: GATEWAY_SIM_MARKETS=${requested} → ${size.actual} markets (started in ${fmt(size.startMs / 1000, 1)} s, idle RSS ${fmt(size.idleRssBytes / 2 ** 20)} MB)`,
      );
      const targets = PUBLIC_TARGETS.filter((t) => index === 0 || t.scaling);
      results.push(...(await measureSize(settings, gateway, requested, targets)));
    } finally {
      await gateway.stop();
    }
  }
  return { results, sizes, redis: await redisReads(settings, command) };
}

/** Requested sizes of the goals: every public GET at 10 markets, the list at 200. */
const EVERY_ROUTE_AT = 10;
const LIST_AT = 200;
const RATIO_GOAL = 0.6;
const P99_GOAL = 2;

export function publicRows(results: readonly PublicResult[], sizes: readonly CatalogueSize[]): Row[] {
  const rows: Row[] = [];
  for (const r of results) {
    const failures = r.gateway.failures + r.baseline.failures;
    const ratioGoal = r.requestedMarkets === EVERY_ROUTE_AT || (r.label === 'markets' && r.requestedMarkets === LIST_AT && r.markets === LIST_AT);
    const clientBound = r.baseline.clientCpu > 0.9 ? ' (baseline client-bound)' : '';
    rows.push({
      area: `public ${r.markets} mkts`,
      what: `GET ${r.label}${r.encoding !== 'none' ? ` → ${r.contentEncoding}` : ''}, ${fmt(r.bodyBytes / 1024, 1)} KB`,
      figure:
        `${fmt(r.gateway.reqPerSec)} / ${fmt(r.baseline.reqPerSec)} req/s = ${fmt(r.ratio, 2)}×; p99 ${fmt(r.gateway.p99)} / ${fmt(r.baseline.p99)} ms; ` +
        `${fmt(r.gateway.cpuUsPerReq)} / ${fmt(r.baseline.cpuUsPerReq)} µs CPU${clientBound}${failures ? `; ${failures} FAILED requests` : ''}`,
      goal: `${ratioGoal ? `≥ ${RATIO_GOAL}×, ` : ''}p99 ≤ ${P99_GOAL}×`,
      // A gateway that completed no request in the window has no p99 to compare: that is a failure, not a pass.
      pass: (!ratioGoal || r.ratio >= RATIO_GOAL) && r.gateway.reqPerSec > 0 && r.p99Ratio <= P99_GOAL && failures === 0,
    });
  }
  for (const s of sizes)
    if (s.skipped)
      rows.push({
        area: `public ${s.requested} mkts`,
        what: 'GATEWAY_SIM_MARKETS not honoured',
        figure: `gateway served ${s.actual} markets`,
        ...(s.requested === LIST_AT ? { goal: `list ≥ ${RATIO_GOAL}× at ${LIST_AT}`, pass: null } : {}),
      });
  if (!results.some((r) => r.label === 'markets' && r.requestedMarkets === LIST_AT) && !sizes.some((s) => s.requested === LIST_AT)) {
    rows.push({ area: `public ${LIST_AT} mkts`, what: 'GET markets', figure: 'not run (BENCH_MARKETS)', goal: `≥ ${RATIO_GOAL}×`, pass: null });
  }
  return rows;
}
