// Builds dist/ (npm run build) when it is missing or older than any source it is compiled from,
// so `npm start` and the tests always run the code in the tree, and a fresh build costs nothing
// when nothing changed. Run by `prestart` and by the tests' global setup.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.tsbuildinfo');
const SOURCES = ['src', 'schema', 'resolvers', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changed = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
if (changed > built) {
  process.stderr.write(built ? 'dist/ is older than the sources: building\n' : 'no dist/ yet: building (npm run build)\n');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // tsc leaves its build info untouched when no output changed: mark the build as current.
  const now = new Date();
  utimesSync(stamp, now, now);
}
