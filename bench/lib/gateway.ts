/**
 * The gateway as a separate OS process, configured only by environment variables (README.md), and
 * a private redis-server for Redis mode. Nothing here imports the gateway's code: its source
 * layout may change under the bench.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { track } from './cleanup.js';
import { listeningPid, rssBytes } from './proc.js';
import { sleep } from './stats.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SIWE_DOMAIN = 'bench.gateway.local';
/** Limits far above anything the load generators send: the limiter still counts, never limits. */
const NO_LIMIT = '1000000000';

/** Raise the soft fd limit to the hard one, then exec the command (same pid). */
const RAISE_FD_LIMIT = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"';

/**
 * How the gateway is started: BENCH_GATEWAY_CMD, else as `npm start` runs it (package.json's start
 * script: node, its flags, the built entry point, compiled first when stale), else the sources
 * through tsx.
 */
export function gatewayCommand(override: string | undefined): string[] {
  if (override) return override.split(/\s+/).filter(Boolean);
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (existsSync(join(ROOT, 'dist/src/main.js'))) return npmStartCommand();
  return ['node', '--import', 'tsx', 'src/main.ts'];
}

/** The command of `npm start` (`exec node … dist/src/main.js`), without its `exec`. */
function npmStartCommand(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const command = pkg.scripts.start
    .replace(/^exec\s+/, '')
    .split(/\s+/)
    .filter(Boolean);
  if (command[0] !== 'node' || command.at(-1) !== 'dist/src/main.js') throw new Error(`npm start is not \`node … dist/src/main.js\`: ${pkg.scripts.start}`);
  return command;
}

function withNodeFlags(command: string[], flags: string[]): string[] {
  if (flags.length === 0) return command;
  const at = command.findIndex((part) => part === 'node' || part.endsWith('/node'));
  if (at === -1) throw new Error(`cannot add ${flags.join(' ')} to a gateway command that does not run node directly: ${command.join(' ')}`);
  return [...command.slice(0, at + 1), ...flags, ...command.slice(at + 1)];
}

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A key in the gateway's format (`tgw_` + 32 random bytes, base64url); only its SHA-256 is written. */
export function newApiKey(): string {
  return `tgw_${randomBytes(32).toString('base64url')}`;
}

export interface BenchIdentity {
  wallet: PrivateKeyAccount;
  accountId: string;
  /** Key id and secret with data:read, execute:preview and execute:live. */
  agentKeyId: string;
  agentKey: string;
  bootstrapPath: string;
}

/** One account (a fresh wallet, a large USDC balance) and one API key, as a GATEWAY_BOOTSTRAP file. */
export function writeBootstrap(dir: string): BenchIdentity {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const agentKey = newApiKey();
  const identity = { wallet, accountId: 'bench', agentKeyId: 'k-bench-agent', agentKey, bootstrapPath: join(dir, 'bootstrap.json') };
  writeFileSync(
    identity.bootstrapPath,
    JSON.stringify({
      accounts: [{ id: identity.accountId, wallet: wallet.address, balances: { USDC: '100000000' } }],
      apiKeys: [
        {
          id: identity.agentKeyId,
          accountId: identity.accountId,
          sha256: createHash('sha256').update(agentKey, 'utf8').digest('hex'),
          scopes: ['data:read', 'execute:preview', 'execute:live'],
          revoked: false,
        },
      ],
    }),
  );
  return identity;
}

export interface GatewayOptions {
  command: string[];
  /** GATEWAY_SIM_MARKETS, passed through whether or not the gateway honours it. */
  markets?: number;
  redisUrl?: string;
  /** Extra node flags (e.g. --cpu-prof, which NODE_OPTIONS does not accept), put after the command's `node`. */
  nodeFlags?: string[];
  startTimeoutMs?: number;
  /** More variables (a real venue's, pointing it at a local fake). */
  env?: Record<string, string>;
  /** The GET whose first 200 means started (default /api/v1/public/status), asked every `pollMs` (default 250). */
  readyPath?: string;
  pollMs?: number;
  /**
   * Where its stdout (the log) goes: a file descriptor (a file the bench opened, or /dev/null), not a
   * pipe into the bench, which would read and buffer every line under load. Default: piped, the last
   * lines kept for error messages.
   */
  stdout?: number;
}

/** Gateway variables the user set (GATEWAY_ACCESS_LOG=false, ...) reach the process too. */
function passedThrough(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('GATEWAY_') && e[1] !== undefined));
}

export class GatewayProcess {
  readonly lines: string[] = [];
  private readonly exited: Promise<void>;
  /** The process that listens (the spawned one, or a descendant behind a wrapper). */
  pid = 0;
  /** `data.counts.markets` from /api/v1/public/status. */
  markets = Number.NaN;
  status: Record<string, unknown> = {};
  /** Milliseconds from the spawn to the first 200 of the ready path. */
  startedMs = Number.NaN;

  private constructor(
    readonly proc: ChildProcess,
    readonly port: number,
    readonly identity: BenchIdentity,
    private readonly dataDir: string,
  ) {
    for (const stream of [proc.stdout, proc.stderr]) {
      if (!stream) continue;
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        this.lines.push(...chunk.split('\n').filter(Boolean));
        if (this.lines.length > 200) this.lines.splice(0, this.lines.length - 200);
      });
    }
    this.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  rss(): number {
    return rssBytes(this.pid);
  }

  /**
   * The live JavaScript heap: the lowest `nodejs_heap_size_used_bytes` of /metrics over `samples`
   * reads `everyMs` apart (the lows follow collections, so they approach what is live, where RSS
   * mostly shows how far V8 let the heap grow).
   */
  async liveHeapBytes(samples = 20, everyMs = 500): Promise<number> {
    let low = Infinity;
    for (let i = 0; i < samples; i++) {
      const text = await (await fetch(`${this.url}/metrics`)).text();
      const used = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(text);
      if (used) low = Math.min(low, Number(used[1]));
      await new Promise((r) => setTimeout(r, everyMs));
    }
    if (low === Infinity) throw new Error('/metrics has no nodejs_heap_size_used_bytes');
    return low;
  }

  static async start(options: GatewayOptions): Promise<GatewayProcess> {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
    const identity = writeBootstrap(dataDir);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? tmpdir(),
      ...passedThrough(),
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      GATEWAY_DATA_DIR: join(dataDir, 'data'),
      GATEWAY_BOOTSTRAP: identity.bootstrapPath,
      GATEWAY_SIWE_DOMAIN: SIWE_DOMAIN,
      RATE_LIMIT_PUBLIC_PER_MINUTE: NO_LIMIT,
      RATE_LIMIT_KEY_PER_MINUTE: NO_LIMIT,
      // The subscriber clients open thousands of sockets from four loopback addresses.
      WS_MAX_SOCKETS_PER_ADDRESS: NO_LIMIT,
      ...(options.markets === undefined ? {} : { GATEWAY_SIM_MARKETS: String(options.markets) }),
      ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
      ...options.env,
    };
    const proc = track(
      spawn('sh', ['-c', RAISE_FD_LIMIT, 'sh', ...withNodeFlags(options.command, options.nodeFlags ?? [])], {
        cwd: ROOT,
        env,
        stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
      }),
    );
    const spawnedAt = Date.now();
    const gateway = new GatewayProcess(proc, port, identity, dataDir);
    const deadline = Date.now() + (options.startTimeoutMs ?? 180_000);
    for (;;) {
      if (!gateway.alive || Date.now() > deadline) {
        const alive = gateway.alive;
        await gateway.stop(); // also removes its temp dir
        throw new Error(
          alive
            ? `gateway did not answer /api/v1/public/status in time:\n${gateway.lines.slice(-20).join('\n')}`
            : `gateway exited during start (${options.command.join(' ')}):\n${gateway.lines.slice(-20).join('\n')}`,
        );
      }
      const body = await fetch(`${gateway.url}${options.readyPath ?? '/api/v1/public/status'}`, { signal: AbortSignal.timeout(2_000) }).then(
        async (r) => (r.ok ? ((await r.json()) as Record<string, unknown>) : undefined),
        () => undefined,
      );
      if (body) break;
      await sleep(options.pollMs ?? 250);
    }
    gateway.startedMs = Date.now() - spawnedAt;
    gateway.status = (await (await fetch(`${gateway.url}/api/v1/public/status`)).json()) as Record<string, unknown>;
    gateway.markets = Number((gateway.status.data as { counts?: { markets?: number } } | undefined)?.counts?.markets);
    gateway.pid = listeningPid(proc.pid!, port) ?? proc.pid!;
    return gateway;
  }

  /** SIGTERM (the gateway drains and exits; a CPU profile is written then), SIGKILL after a grace period. */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.alive) {
      this.proc.kill('SIGTERM');
      const timer = setTimeout(() => this.alive && this.proc.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => (socket.destroy(), resolve(ok));
    socket.setTimeout(300, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/** A redis-server of the bench's own on a free port, without persistence; killed afterwards. */
export class PrivateRedis {
  private constructor(
    private readonly proc: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const port = await freePort();
    const proc = track(
      spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: 'ignore' }),
    );
    const failed = new Promise<never>((_, reject) => proc.once('error', (e) => reject(new Error(`redis-server could not start: ${e.message}`))));
    failed.catch(() => undefined);
    const deadline = Date.now() + 5_000;
    while (!(await Promise.race([redisAnswers(port), failed]))) {
      if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`);
      await sleep(50);
    }
    return new PrivateRedis(proc, port);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGTERM');
    await exited;
  }
}

/** `data.sharedState` of a gateway's status, as it says now. */
async function sharedState(gateway: GatewayProcess): Promise<{ ingestionLeader?: boolean; replica?: string; leadingReplica?: string | null }> {
  const body = (await (await fetch(`${gateway.url}/api/v1/public/status`)).json()) as { data?: { sharedState?: Record<string, unknown> } };
  return (body.data?.sharedState ?? {}) as { ingestionLeader?: boolean; replica?: string; leadingReplica?: string | null };
}

/**
 * Two gateway processes on one Redis (REDIS_URL): the first is started and waited for until it
 * leads ingestion, then the second, which follows it (reads what the leader writes, hears its
 * invalidations and events through Redis).
 */
export async function startReplicas(
  options: Omit<GatewayOptions, 'redisUrl'>,
  redis: PrivateRedis,
): Promise<{ leader: GatewayProcess; follower: GatewayProcess }> {
  const leader = await GatewayProcess.start({ ...options, redisUrl: redis.url });
  try {
    const deadline = Date.now() + 20_000;
    let state = await sharedState(leader);
    while (!state.ingestionLeader) {
      if (Date.now() > deadline) throw new Error(`the first Redis replica did not take the ingestion lease: ${JSON.stringify(state)}`);
      await sleep(250);
      state = await sharedState(leader);
    }
    const follower = await GatewayProcess.start({ ...options, redisUrl: redis.url });
    const followed = await sharedState(follower);
    if (followed.ingestionLeader || followed.leadingReplica !== state.replica) {
      await follower.stop();
      throw new Error(`the second Redis replica does not follow the first: ${JSON.stringify(followed)}`);
    }
    return { leader, follower };
  } catch (error) {
    await leader.stop();
    throw error;
  }
}
