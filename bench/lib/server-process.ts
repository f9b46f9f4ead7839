/** A bench server process (the wire baseline, the fastify peer): started on an input file, it prints its port as its first line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { track } from './cleanup.js';
import { ROOT } from './gateway.js';

export interface ServerStart {
  /** Said in errors: `baseline server`, `peer server`. */
  name: string;
  /** The script, run through tsx: `bench/baseline-server.ts`. */
  script: string;
  /** Where its input is written (the script's argument). */
  file: string;
  input: unknown;
  /** Where it prints `{"port": n}` first: stdout, or stderr when stdout is its log (then `stdout` says where that goes). */
  portOn: 'stdout' | 'stderr';
  stdout?: number | 'ignore';
}

export class ServerProcess {
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

  /** Starts it; resolves with the port it prints (anything else on a stderr carrying the port is passed on). */
  static async start(s: ServerStart): Promise<ServerProcess> {
    writeFileSync(s.file, JSON.stringify(s.input));
    const stdio = s.portOn === 'stdout' ? (['ignore', 'pipe', 'inherit'] as const) : (['ignore', s.stdout ?? 'ignore', 'pipe'] as const);
    const proc = track(spawn(process.execPath, ['--import', 'tsx', s.script, s.file], { cwd: ROOT, stdio: [...stdio] }));
    const exited = once(proc, 'exit').then(([code]) => {
      throw new Error(`${s.name} exited early with code ${code}`);
    });
    exited.catch(() => undefined);
    const first = new Promise<{ port: number }>((resolve, reject) => {
      const lines = createInterface({ input: s.portOn === 'stdout' ? proc.stdout! : proc.stderr! });
      lines.on('line', (line) => (line.startsWith('{"port"') ? resolve(JSON.parse(line) as { port: number }) : process.stderr.write(`${s.name}: ${line}\n`)));
      lines.on('close', () => reject(new Error(`${s.name} closed its ${s.portOn} without printing its port`)));
    });
    first.catch(() => undefined);
    const { port } = await Promise.race([first, exited]);
    return new ServerProcess(proc, port);
  }

  /** SIGTERM, then SIGKILL if it has not exited in 5 s. */
  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = once(this.proc, 'exit');
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
