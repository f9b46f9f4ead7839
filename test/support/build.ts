import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: the tests that start gateway processes run the compiled build
 * (`node dist/src/main.js`, as `npm start` and the image do), so build it first when it is
 * missing or older than the sources (a no-op otherwise).
 */
export default function buildOnce(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: root, stdio: 'inherit' });
}
