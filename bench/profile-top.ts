/**
 * Top self-time of a `--cpu-prof` profile, by cost centre, by package and by function, so a
 * profile of the gateway can be summarised in a few lines:
 *
 *   npx tsx bench/profile-top.ts <file.cpuprofile> [count] [fromUs toUs]
 *
 * fromUs/toUs (optional) keep only samples in that window of the profile's clock, which is the
 * monotonic clock of process.hrtime (µs): `npm run bench` profiles one window per route this way.
 */
import { fileURLToPath } from 'node:url';
import { readProfile, summarise } from './lib/profile-summary.js';

const [file, countArg, fromArg, toArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/profile-top.ts <file.cpuprofile> [count] [fromUs toUs]');
const count = Number(countArg ?? 25);
const root = fileURLToPath(new URL('..', import.meta.url));
const summary = summarise(readProfile(file), { root, ...(fromArg ? { fromUs: Number(fromArg) } : {}), ...(toArg ? { toUs: Number(toArg) } : {}) });

const print = (title: string, rows: [string, number][], limit: number) => {
  console.log(`\n${title}`);
  // Percentages are of busy time: idle is only the gaps between load runs.
  for (const [key, us] of rows.slice(0, limit)) console.log(`${((100 * us) / summary.busyUs).toFixed(1).padStart(5)}%  ${key}`);
};
console.log(`${file}: ${(summary.busyUs / 1e6).toFixed(1)} s busy, ${(summary.idleUs / 1e6).toFixed(1)} s idle`);
print('Self time by cost centre', summary.byCentre, 15);
print('Self time by package or directory', summary.byOwner, 15);
print('Self time by function', summary.byFunction, count);
