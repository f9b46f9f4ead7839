import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createServer, Socket } from 'node:net';
import { pino } from 'pino';
import { createClient } from 'redis';
import { RedisConnection } from '../../src/stores/redis/redis-connection.js';

/** The shared Redis the store suites run against (`.ci/run` makes sure one runs here). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Answers whether a Redis answers PING at `url` within `timeoutMs`, without retry loops. */
export function redisAnswers(url: string, timeoutMs = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
    socket.connect(Number(port || 6379), hostname, () => socket.write('PING\r\n'));
  });
}

/**
 * Whether the Redis suites run. Outside CI an unreachable Redis skips them with a notice; with
 * CI=true it fails the run, so a CI that lost its Redis cannot pass by skipping.
 */
export async function redisForSuites(): Promise<boolean> {
  if (await redisAnswers(TEST_REDIS_URL)) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but no Redis answers at ${TEST_REDIS_URL}: the Redis suites cannot be skipped in CI`);
  console.warn(`\n  SKIPPING the Redis suites: no Redis at ${TEST_REDIS_URL}. Start one (redis-server) or set TEST_REDIS_URL to run them.\n`);
  return false;
}

/** Whether the tests that kill and restart a Redis of their own can run (they need `redis-server`); same rule as above. */
export function redisServerForSuites(): boolean {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0) return true;
  if (process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed: the Redis outage tests cannot be skipped in CI');
  console.warn('\n  SKIPPING the Redis outage tests: redis-server is not installed.\n');
  return false;
}

/** A key prefix no other run or test uses; everything a test writes lives under it. */
export function uniquePrefix(label: string): string {
  return `gwtest:${label}:${process.pid}:${randomUUID().slice(0, 8)}:`;
}

export const silentLogger = pino({ level: 'silent' });

/** Connections opened by a suite, closed and their keys deleted afterwards (only under `gwtest:` prefixes). */
export class RedisTestConnections {
  private readonly opened: RedisConnection[] = [];

  constructor(private readonly url = TEST_REDIS_URL) {}

  async open(prefix: string): Promise<RedisConnection> {
    const redis = new RedisConnection({ url: this.url, keyPrefix: prefix, logger: silentLogger });
    await redis.open(5_000);
    this.opened.push(redis);
    return redis;
  }

  async cleanup(): Promise<void> {
    const prefixes = [...new Set(this.opened.map((r) => r.keyPrefix))];
    await Promise.all(this.opened.splice(0).map((r) => r.close()));
    await deleteKeys(this.url, prefixes);
  }
}

/** Deletes every key under the given test prefixes (never anything else, never FLUSHALL). */
export async function deleteKeys(url: string, prefixes: readonly string[]): Promise<void> {
  const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 2_000 } });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for (const prefix of prefixes) {
      if (!prefix.startsWith('gwtest:')) throw new Error(`refusing to delete keys outside a test prefix: ${prefix}`);
      const keys: string[] = [];
      for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
      for (let i = 0; i < keys.length; i += 500) await client.unlink(keys.slice(i, i + 500));
    }
  } finally {
    await client.close();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A redis-server of the test's own, on a free port: safe to kill and restart. Without persistence
 * by default; with `appendonly`, an append-only file (fsync always) in a directory of its own, so a
 * restart replays everything acknowledged before the kill.
 */
export class PrivateRedis {
  private proc: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string | undefined,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(options: { appendonly?: boolean } = {}): Promise<PrivateRedis> {
    const dir = options.appendonly ? mkdtempSync(join(tmpdir(), 'gw-redis-aof-')) : undefined;
    const redis = new PrivateRedis(await freePort(), dir);
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    const persistence = this.dir ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.dir] : ['--appendonly', 'no'];
    const proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--daemonize', 'no'], {
      stdio: 'ignore',
    });
    this.proc = proc;
    const deadline = Date.now() + 5_000;
    while (!(await redisAnswers(this.url, 200))) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Kills the server abruptly (as a crash would) and waits until it is gone. */
  async kill(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  }
}
