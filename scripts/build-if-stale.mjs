// Builds dist/: tsc (tsconfig.build.json), then the sources' data files beside the compiled code
// (any non-TypeScript file under src/, schema/, resolvers/), then the dashboard (Vite, dist/dashboard). With no argument only when dist/
// is missing or older than any source, so `npm start` and the tests always run the code in the
// tree and cost nothing when nothing changed; `--force` (npm run build) always builds.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stamp = join(dist, '.tsbuildinfo');
const CODE = ['src', 'schema', 'resolvers'];
const SOURCES = [...CODE, 'dashboard', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function files(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [{ path, mtimeMs: stat.mtimeMs }];
  return [{ path, mtimeMs: stat.mtimeMs }, ...readdirSync(path).flatMap((entry) => files(join(path, entry)))];
}

const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changed = Math.max(0, ...SOURCES.flatMap((s) => files(join(root, s))).map((f) => f.mtimeMs));
if (process.argv.includes('--force') || changed > built) {
  if (!process.argv.includes('--force')) process.stderr.write(built ? 'dist/ is older than the sources: building\n' : 'no dist/ yet: building\n');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // Data files the code reads beside itself: everything under the code folders but TypeScript.
  for (const file of CODE.flatMap((c) => files(join(root, c)))) {
    if (statSync(file.path).isDirectory() || file.path.endsWith('.ts')) continue;
    const target = join(dist, relative(root, file.path));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file.path, target);
  }
  // The dashboard (Vite) into dist/dashboard, served by the gateway at /dashboard/.
  const vite = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'dashboard', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
  // tsc leaves its build info untouched when no output changed: mark the build as current.
  const now = new Date();
  utimesSync(stamp, now, now);
}
