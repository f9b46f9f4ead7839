/** The peer process (bench/peer-server.ts): a fastify server with its log on a file descriptor of the bench's choosing. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { PeerInput } from './baseline-format.js';
import { track } from './cleanup.js';
import { ROOT } from './gateway.js';

export class PeerProcess {
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

  /** Starts it on `input` (written to `file`), its stdout (the request log) on `stdout`; resolves with the port it prints on stderr. */
  static async start(input: PeerInput, file: string, stdout: number | 'ignore'): Promise<PeerProcess> {
    writeFileSync(file, JSON.stringify(input));
    const proc = track(spawn(process.execPath, ['--import', 'tsx', 'bench/peer-server.ts', file], { cwd: ROOT, stdio: ['ignore', stdout, 'pipe'] }));
    const exited = once(proc, 'exit').then(([code]) => {
      throw new Error(`peer server exited early with code ${code}`);
    });
    exited.catch(() => undefined);
    // The first line on stderr is its port; anything it says later is passed on.
    const first = new Promise<{ port: number }>((resolve, reject) => {
      const lines = createInterface({ input: proc.stderr! });
      lines.on('line', (line) => (line.startsWith('{"port"') ? resolve(JSON.parse(line) as { port: number }) : process.stderr.write(`peer: ${line}\n`)));
      lines.on('close', () => reject(new Error('peer server closed stderr without printing its port')));
    });
    first.catch(() => undefined);
    const { port } = await Promise.race([first, exited]);
    return new PeerProcess(proc, port);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = once(this.proc, 'exit');
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
