import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every temporary directory the tests make (data dirs, bootstrap files,
 * copied checkpoints, the gateways they spawn) goes under one directory of this run, removed
 * when the run ends, so a run leaves nothing behind in the machine's temp dir. The workers and
 * the processes they start inherit TMPDIR, which os.tmpdir() reads.
 */
export default function runTempDir(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-tests-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
