/**
 * Part 4 (profile): one gateway process started with `--cpu-prof`, loaded route after route; the
 * profile is cut into one window per route (bench/lib/profile-summary.ts) and each window's self
 * time is grouped by cost centre: what part of a public request costs what.
 */
import { mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayProcess, ROOT } from './lib/gateway.js';
import { loadRun } from './lib/load.js';
import { readProfile, summarise } from './lib/profile-summary.js';
import { log, type Row } from './lib/report.js';
import type { Settings } from './lib/settings.js';
import { fmt } from './lib/stats.js';

const PROFILED = [
  { label: 'markets/BTC', path: '/api/v1/public/markets/BTC' },
  { label: 'markets', path: '/api/v1/public/markets' },
  { label: 'markets/BTC/history', path: '/api/v1/public/markets/BTC/history' },
  { label: 'history 1h×24', path: '/api/v1/public/markets/BTC/history?resolution=1h&limit=24' },
  { label: 'markets/BTC/orderbook', path: '/api/v1/public/markets/BTC/orderbook' },
] as const;

export interface ProfileResult {
  label: string;
  path: string;
  markets: number;
  requests: number;
  /** Profiled CPU per request (the profiler adds some overhead): busy samples in the window ÷ requests. */
  busyUsPerReq: number;
  /** Cost centres: share of busy time and µs per request. */
  centres: { centre: string; share: number; usPerReq: number }[];
  topFunctions: { fn: string; share: number }[];
  profileFile: string;
  /** The route's window in the profile's clock (µs): `npx tsx bench/profile-top.ts <profileFile> 30 <fromUs> <toUs>`. */
  window: { fromUs: number; toUs: number };
}

export async function profile(settings: Settings, command: string[], stamp: string): Promise<ProfileResult[]> {
  const dir = join(ROOT, 'bench/profiles', stamp);
  mkdirSync(dir, { recursive: true });
  // In its default configuration, as users run it: the access log on (to /dev/null, so writing it costs what it costs).
  const devNull = openSync('/dev/null', 'w');
  const gateway = await GatewayProcess.start({
    command,
    markets: settings.markets[0]!,
    nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    env: { LOG_LEVEL: 'info', GATEWAY_ACCESS_LOG: 'true' },
    stdout: devNull,
  });
  const windows: { label: string; path: string; fromUs: number; toUs: number; requests: number }[] = [];
  try {
    for (const route of PROFILED) {
      await loadRun(gateway.url + route.path, gateway.pid, { connections: settings.connections, duration: 1 }); // warm-up, outside the window
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      const run = await loadRun(gateway.url + route.path, gateway.pid, { connections: settings.connections, duration: settings.profileDuration });
      const toUs = Number(process.hrtime.bigint() / 1000n);
      windows.push({ ...route, fromUs, toUs, requests: run.reqPerSec * settings.profileDuration });
      log(
        `profile: ${route.label} ${fmt(run.reqPerSec)} req/s under the profiler${run.non2xx + run.errors ? `, ${run.non2xx} non-2xx, ${run.errors} errors` : ''}`,
      );
    }
  } finally {
    await gateway.stop(30_000); // the profile is written on exit
  }
  const file =
    readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${gateway.pid}.`)) ?? readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  const data = readProfile(join(dir, file));
  return windows.map((w) => {
    const s = summarise(data, { fromUs: w.fromUs, toUs: w.toUs, root: ROOT });
    const perReq = (us: number) => us / Math.max(1, w.requests);
    return {
      label: w.label,
      path: w.path,
      markets: gateway.markets,
      requests: Math.round(w.requests),
      busyUsPerReq: perReq(s.busyUs),
      centres: s.byCentre.map(([centre, us]) => ({ centre, share: us / s.busyUs, usPerReq: perReq(us) })),
      topFunctions: s.byFunction.slice(0, 15).map(([fn, us]) => ({ fn, share: us / s.busyUs })),
      profileFile: join('bench/profiles', stamp, file),
      window: { fromUs: w.fromUs, toUs: w.toUs },
    };
  });
}

export function profileRows(results: readonly ProfileResult[]): Row[] {
  return results.map((r) => ({
    area: `profile ${r.markets} mkts`,
    what: `GET ${r.label}: CPU by cost centre`,
    figure: `${fmt(r.busyUsPerReq)} µs/req: ${r.centres
      .slice(0, 6)
      .map((c) => `${c.centre.replace(/ \(.*\)$/, '')} ${fmt(c.share * 100)} %`)
      .join(', ')}`,
  }));
}
