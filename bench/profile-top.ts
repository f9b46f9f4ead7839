/**
 * Top self-time of a `--cpu-prof` profile, by function and by package, so a profile of the bench
 * server can be summarised in a few lines: `npx tsx bench/profile-top.ts <file.cpuprofile> [count]`.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, countArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/profile-top.ts <file.cpuprofile> [count]');
const count = Number(countArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
// Percentages are of busy time: idle is only the gaps between load runs.
const idle = [...selfUs].filter(([id]) => nodes.get(id)!.callFrame.functionName === '(idle)').reduce((sum, [, us]) => sum + us, 0);
const total = [...selfUs.values()].reduce((a, b) => a + b, 0) - idle;

/** Where a frame lives: a package under node_modules, node internals, or this repository. */
function ownerOf({ functionName, url }: ProfileNode['callFrame']): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return 'node internals';
  if (url !== '') return 'repository';
  // graphql-jit compiles resolvers with new Function, so its code has no url either.
  return functionName.startsWith('(') ? functionName : 'native or graphql-jit generated';
}

const byFunction = new Map<string, number>();
const byOwner = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = nodes.get(id)!.callFrame;
  const { functionName, url, lineNumber } = frame;
  if (functionName === '(idle)') continue;
  const where = url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/main\//, '')}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  byOwner.set(ownerOf(frame), (byOwner.get(ownerOf(frame)) ?? 0) + us);
}

const print = (title: string, rows: Map<string, number>, limit: number) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle`);
print('Self time by package', byOwner, 15);
print('Self time by function', byFunction, count);
