/** The baseline server's input, and the baseline process itself (bench/baseline-server.ts). */
import type { BaselineEntry } from './baseline-format.js';
import { ServerProcess } from './server-process.js';

export type { BaselineEntry } from './baseline-format.js';

/** The wire baseline on `entries` (written to `file`); it prints its port on stdout. */
export function startBaseline(entries: BaselineEntry[], file: string): Promise<ServerProcess> {
  return ServerProcess.start({ name: 'baseline server', script: 'bench/baseline-server.ts', file, input: entries, portOn: 'stdout' });
}
