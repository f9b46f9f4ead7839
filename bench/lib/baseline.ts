/** The baseline server's input, and the baseline process itself (bench/baseline-server.ts). */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { track } from './cleanup.js';
import { ROOT } from './gateway.js';
import type { BaselineEntry } from './baseline-format.js';

export type { BaselineEntry } from './baseline-format.js';

export class BaselineProcess {
  private constructor(
    readonly proc: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.proc.pid!;
  }

  static async start(entries: BaselineEntry[], file: string): Promise<BaselineProcess> {
    writeFileSync(file, JSON.stringify(entries));
    const proc = track(spawn(process.execPath, ['--import', 'tsx', 'bench/baseline-server.ts', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }));
    const exited = once(proc, 'exit').then(([code]) => {
      throw new Error(`baseline server exited early with code ${code}`);
    });
    exited.catch(() => undefined);
    const first = (async () => {
      for await (const line of createInterface({ input: proc.stdout! })) return JSON.parse(line) as { port: number };
      throw new Error('baseline server closed stdout without printing its port');
    })();
    const { port } = await Promise.race([first, exited]);
    return new BaselineProcess(proc, port);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = once(this.proc, 'exit');
    this.proc.kill('SIGTERM');
    await exited;
  }
}
