/**
 * Part `peer`: the gateway in its default configuration (LOG_LEVEL=info, one access line per
 * request) against the peer a user would build instead (bench/peer-server.ts: fastify 5 with its
 * request log, @fastify/rate-limit and an ETag, serving the gateway's bytes from memory) and the
 * wire baseline (bench/baseline-server.ts), and the gateway with its access log off (LOG_LEVEL=warn)
 * against the baseline. Four processes, one autocannon target at a time, the order rotating
 * between rounds; every ratio is taken within a round, and the medians of the rounds are reported.
 *
 * The servers that log write to files (not to a pipe into the bench, which would read every line
 * under load): each is counted and truncated after every run, so the table shows the lines each
 * wrote per request.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBaseline, type BaselineEntry } from './lib/baseline.js';
import { GatewayProcess } from './lib/gateway.js';
import { rawGet } from './lib/http.js';
import { loadRun, type LoadRun } from './lib/load.js';
import { startPeer } from './lib/peer.js';
import { log, type Row } from './lib/report.js';
import type { Settings } from './lib/settings.js';
import { fmt, median, sleep } from './lib/stats.js';
import { headersFor, NOT_COPIED, PUBLIC_TARGETS, sideOf, type PublicTarget, type Side } from './public-reads.js';

/** Every public GET route once (the encoded variants of the list are the same route). */
export const PEER_TARGETS: readonly PublicTarget[] = PUBLIC_TARGETS.filter((t) => t.encoding === '');

/** The peer part's routes: every one, or those `BENCH_PEER_ROUTES` names (by label). */
function peerTargets(only: readonly string[] | undefined): readonly PublicTarget[] {
  if (only === undefined) return PEER_TARGETS;
  const unknown = only.filter((label) => !PEER_TARGETS.some((t) => t.label === label));
  if (unknown.length > 0) throw new Error(`BENCH_PEER_ROUTES: unknown route ${unknown.join(', ')} (known: ${PEER_TARGETS.map((t) => t.label).join(', ')})`);
  return PEER_TARGETS.filter((t) => only.includes(t.label));
}

const SERVERS = ['on', 'peer', 'raw', 'off'] as const;
type Server = (typeof SERVERS)[number];
/** The servers whose log is counted. */
const LOGGING = ['on', 'peer', 'off'] as const;
type Logging = (typeof LOGGING)[number];
const logs = (which: Server): which is Logging => (LOGGING as readonly Server[]).includes(which);

/** The goals (issue #27): access log on ≥ 1.0× the peer and ≥ 0.5× raw; off ≥ 0.6× raw. */
export const PEER_GOALS = { onVsPeer: 1.0, onVsRaw: 0.5, offVsRaw: 0.6 } as const;

export interface PeerSide extends Side {
  /** Lines the server wrote to stdout per completed request (median of the runs; n/a for the raw server). */
  linesPerRequest: number;
}

export interface PeerResult {
  markets: number;
  label: string;
  path: string;
  bodyBytes: number;
  on: PeerSide;
  peer: PeerSide;
  raw: PeerSide;
  off: PeerSide;
  /** Medians over the rounds of the ratio of req/s within each round. */
  onVsPeer: number;
  onVsRaw: number;
  offVsRaw: number;
}

export interface PeerReads {
  requestedMarkets: number;
  markets: number;
  results: PeerResult[];
}

/** Newlines in the file, which is then emptied (the writer appends: it goes on at offset 0). */
function takeLines(file: string): number {
  const bytes = readFileSync(file);
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
  truncateSync(file, 0);
  return lines;
}

export async function peerReads(settings: Settings, command: string[]): Promise<PeerReads> {
  const targets = peerTargets(settings.peerRoutes);
  const requested = settings.markets[0] ?? 10;
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-peer-'));
  const logFile = Object.fromEntries(LOGGING.map((s) => [s, join(dir, `${s}.log`)])) as Record<Logging, string>;
  const fds = Object.fromEntries(LOGGING.map((s) => [s, openSync(logFile[s], 'a')])) as Record<Logging, number>;
  const stops: (() => Promise<void>)[] = [];
  try {
    // The default configuration (the access log on at info), and the log off; GATEWAY_ACCESS_LOG from the environment does not apply here.
    const started = await Promise.allSettled([
      GatewayProcess.start({ command, markets: requested, stdout: fds.on, env: { LOG_LEVEL: 'info', GATEWAY_ACCESS_LOG: 'true' } }),
      GatewayProcess.start({ command, markets: requested, stdout: fds.off, env: { LOG_LEVEL: 'warn', GATEWAY_ACCESS_LOG: 'true' } }),
    ]);
    for (const s of started) if (s.status === 'fulfilled') stops.push(() => s.value.stop());
    const [on, off] = started.map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    }) as [GatewayProcess, GatewayProcess];
    log(`peer: GATEWAY_SIM_MARKETS=${requested} → ${on.markets} markets; gateways with LOG_LEVEL=info and warn, logs in ${dir}`);

    // The gateway's answers, fetched once as raw bytes, become the baseline's and the peer's.
    const entries: BaselineEntry[] = [];
    for (const t of targets) {
      const res = await rawGet(on.url + t.path, headersFor(t) ?? {});
      if (res.status < 200 || res.status > 299) throw new Error(`gateway GET ${t.path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 200)}`);
      const headers = Object.entries(res.headers).flatMap(([k, v]) =>
        NOT_COPIED.has(k) || v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x] as [string, string]),
      );
      entries.push({ url: t.path, acceptEncoding: t.encoding, status: res.status, headers, body: res.body.toString('base64') });
    }
    const raw = await startBaseline(entries, join(dir, 'responses.json'));
    stops.push(() => raw.stop());
    const peer = await startPeer({ routes: [...new Set(targets.map((t) => t.route))], entries }, join(dir, 'peer.json'), fds.peer);
    stops.push(() => peer.stop());
    for (const [i, t] of targets.entries()) {
      const body = Buffer.from(entries[i]!.body, 'base64');
      for (const [name, url] of [
        ['baseline', raw.url],
        ['peer', peer.url],
      ] as const) {
        const res = await rawGet(url + t.path, headersFor(t) ?? {});
        if (!res.body.equals(body)) throw new Error(`the ${name} does not serve the gateway's bytes for ${t.path}`);
        if (name === 'peer') {
          const etag = String(res.headers.etag);
          const again = await rawGet(url + t.path, { ...headersFor(t), 'if-none-match': etag });
          if (again.status !== 304 || !res.headers['x-ratelimit-limit'] || !res.headers['x-request-id'])
            throw new Error(`the peer answers ${t.path} without its ETag / 304, rate-limit or request id headers`);
        }
      }
    }

    const server: Record<Server, { url: string; pid: number }> = {
      on: { url: on.url, pid: on.pid },
      peer: { url: peer.url, pid: peer.pid },
      raw: { url: raw.url, pid: raw.pid },
      off: { url: off.url, pid: off.pid },
    };
    const load = (which: Server, t: PublicTarget, duration: number) =>
      loadRun(server[which].url + t.path, server[which].pid, {
        connections: settings.connections,
        duration,
        ...(headersFor(t) ? { headers: headersFor(t)! } : {}),
      });

    if (settings.warmup > 0) for (const t of targets) for (const which of SERVERS) await load(which, t, settings.warmup);
    await sleep(250);
    for (const s of LOGGING) takeLines(logFile[s]);

    type Run = LoadRun & { lines: number };
    const runs = new Map<PublicTarget, Record<Server, Run[]>>(targets.map((t) => [t, { on: [], peer: [], raw: [], off: [] }]));
    for (let round = 0; round < settings.runs; round++) {
      // Each server first in turn: drift within a round hits all four alike over the rounds.
      const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]!);
      for (const t of targets) {
        for (const which of order) {
          const run = await load(which, t, settings.duration);
          let lines = Number.NaN;
          if (logs(which)) {
            await sleep(250); // the last lines of the run reach the file
            lines = takeLines(logFile[which]);
          }
          runs.get(t)![which].push({ ...run, lines });
          const failed = run.non2xx + run.errors + run.timeouts;
          log(
            `peer ${on.markets} markets, run ${round + 1}/${settings.runs} ${which.padEnd(4)} ${t.label.padEnd(22)} ${fmt(run.reqPerSec).padStart(6)} req/s ` +
              `p50 ${run.p50} p99 ${run.p99} ms ${fmt(run.cpuUsPerReq)} µs CPU/req client ${fmt(run.clientCpu * 100)} %` +
              (Number.isNaN(lines) ? '' : ` ${fmt(lines / Math.max(1, run.requests), 2)} lines/req`) +
              (failed ? `  FLAGGED: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts` : ''),
          );
        }
      }
    }
    const results = targets.map((t, i): PeerResult => {
      const r = runs.get(t)!;
      const side = (which: Server): PeerSide => ({
        ...sideOf(r[which]),
        linesPerRequest: median(r[which].map((run) => run.lines / Math.max(1, run.requests))),
      });
      const ratio = (a: Server, b: Server) => median(r[a].map((run, k) => run.reqPerSec / r[b][k]!.reqPerSec));
      return {
        markets: on.markets,
        label: t.label,
        path: t.path,
        bodyBytes: Buffer.from(entries[i]!.body, 'base64').length,
        on: side('on'),
        peer: side('peer'),
        raw: side('raw'),
        off: side('off'),
        onVsPeer: ratio('on', 'peer'),
        onVsRaw: ratio('on', 'raw'),
        offVsRaw: ratio('off', 'raw'),
      };
    });
    return { requestedMarkets: requested, markets: on.markets, results };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    for (const fd of Object.values(fds)) closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function peerRows(reads: PeerReads): Row[] {
  const g = PEER_GOALS;
  return reads.results.flatMap((r): Row[] => {
    const area = `peer ${r.markets} mkts`;
    const what = `GET ${r.label}, ${fmt(r.bodyBytes / 1024, 1)} KB`;
    const clientBound = r.raw.clientCpu > 0.9 ? ' (raw client-bound)' : '';
    const onFailures = r.on.failures + r.peer.failures + r.raw.failures;
    // The default configuration must really have written its access line (and the peer its log).
    const silent = !(r.on.linesPerRequest >= 0.9) || !(r.peer.linesPerRequest >= 0.9);
    return [
      {
        area,
        what: `${what}: access log on (LOG_LEVEL=info)`,
        figure:
          `${fmt(r.on.reqPerSec)} / peer ${fmt(r.peer.reqPerSec)} / raw ${fmt(r.raw.reqPerSec)} req/s = ${fmt(r.onVsPeer, 2)}× peer, ${fmt(r.onVsRaw, 2)}× raw; ` +
          `p99 ${fmt(r.on.p99)} / ${fmt(r.peer.p99)} / ${fmt(r.raw.p99)} ms; ${fmt(r.on.cpuUsPerReq)} / ${fmt(r.peer.cpuUsPerReq)} / ${fmt(r.raw.cpuUsPerReq)} µs CPU; ` +
          `log lines/req ${fmt(r.on.linesPerRequest, 2)} / ${fmt(r.peer.linesPerRequest, 2)}${clientBound}` +
          `${silent ? '; LOG NOT WRITTEN' : ''}${onFailures ? `; ${onFailures} FAILED requests` : ''}`,
        goal: `≥ ${fmt(g.onVsPeer, 1)}× peer, ≥ ${fmt(g.onVsRaw, 1)}× raw`,
        pass: r.onVsPeer >= g.onVsPeer && r.onVsRaw >= g.onVsRaw && r.on.reqPerSec > 0 && !silent && onFailures === 0,
      },
      {
        area,
        what: `${what}: access log off (LOG_LEVEL=warn)`,
        figure:
          `${fmt(r.off.reqPerSec)} / raw ${fmt(r.raw.reqPerSec)} req/s = ${fmt(r.offVsRaw, 2)}× raw; p99 ${fmt(r.off.p99)} / ${fmt(r.raw.p99)} ms; ` +
          `${fmt(r.off.cpuUsPerReq)} / ${fmt(r.raw.cpuUsPerReq)} µs CPU; log lines/req ${fmt(r.off.linesPerRequest, 2)}${clientBound}` +
          `${r.off.failures + r.raw.failures ? `; ${r.off.failures + r.raw.failures} FAILED requests` : ''}`,
        goal: `≥ ${fmt(g.offVsRaw, 1)}× raw`,
        pass: r.offVsRaw >= g.offVsRaw && r.off.reqPerSec > 0 && r.off.failures + r.raw.failures === 0,
      },
    ];
  });
}
