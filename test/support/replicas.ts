import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './redis.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The compiled entry point (built by the global setup, test/support/build.ts). */
export const GATEWAY_ENTRY = 'dist/src/main.js';

/** One gateway process (`node dist/src/main.js`, the compiled build), as a replica runs in production. */
export class Replica {
  /** Everything it printed, one entry per line (pino JSON for logs). */
  readonly lines: string[] = [];
  readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly proc: ChildProcess,
  ) {
    for (const stream of [proc.stdout!, proc.stderr!]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        this.lines.push(...parts);
      });
    }
    this.exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** Starts a replica and waits until it answers `/api/v1/public/status`. */
  static async start(name: string, env: Record<string, string>, timeoutMs = 40_000): Promise<Replica> {
    const port = await freePort();
    const proc = spawn(process.execPath, [GATEWAY_ENTRY], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), `gw-${name}-`)),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const replica = new Replica(name, port, proc);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!replica.alive) throw new Error(`replica ${name} exited during start:\n${replica.lines.slice(-20).join('\n')}`);
      if (Date.now() > deadline) {
        replica.kill();
        throw new Error(`replica ${name} did not answer within ${timeoutMs} ms:\n${replica.lines.slice(-20).join('\n')}`);
      }
      const ok = await fetch(`${replica.baseUrl}/api/v1/public/status`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return replica;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async status(): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.baseUrl}/api/v1/public/status`, { signal: AbortSignal.timeout(3_000) });
    return { status: res.status, body: await res.json() };
  }

  get(path: string, init?: RequestInit): Promise<Response> {
    return fetch(this.baseUrl + path, { signal: AbortSignal.timeout(5_000), ...init });
  }

  /** Log entries (parsed pino lines) whose message matches. */
  logs(msg: RegExp): Record<string, unknown>[] {
    return this.lines.flatMap((l) => {
      if (!l.startsWith('{')) return [];
      try {
        const entry = JSON.parse(l) as Record<string, unknown>;
        return typeof entry.msg === 'string' && msg.test(entry.msg) ? [entry] : [];
      } catch {
        return [];
      }
    });
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.alive) this.proc.kill(signal);
  }

  /** Stops it (SIGTERM, then SIGKILL after a grace period) and waits for the exit. */
  async stop(graceMs = 5_000): Promise<void> {
    if (!this.alive) return;
    this.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Polls `check` until it returns a value (not undefined/false), failing after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The two replicas as [leader, follower], once exactly one of them leads ingestion. */
export function leaderAndFollower(replicas: readonly Replica[], timeoutMs = 10_000): Promise<[Replica, Replica]> {
  return eventually(
    'exactly one ingestion leader',
    async () => {
      const leaders = await Promise.all(replicas.map(async (r) => (await r.status()).body.data.sharedState.ingestionLeader as boolean));
      return leaders.filter(Boolean).length === 1 ? (leaders[0] ? [replicas[0]!, replicas[1]!] : [replicas[1]!, replicas[0]!]) : undefined;
    },
    timeoutMs,
  );
}
