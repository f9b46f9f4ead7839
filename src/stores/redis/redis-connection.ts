import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import {
  AbortError,
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  DisconnectsClientError,
  ErrorReply,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
} from 'redis';
import { GatewayError } from '../../errors/gateway-error.js';
import { sharedStateUnavailable } from '../../errors/availability-refusals.js';

export type RedisClient = ReturnType<typeof createClient>;

export interface RedisConnectionOptions {
  url: string;
  /** Prepended to every key and channel, so deployments (and test runs) can share one Redis. */
  keyPrefix: string;
  logger: Logger;
  /**
   * A command not yet written to the socket within this many ms fails instead of stalling a
   * request (default 2000). node-redis drops the timer once the command is written: it does not
   * bound the wait for the reply.
   */
  commandTimeoutMs?: number;
}

/** What `/public/status` shows about the connection. */
export interface RedisConnectionState {
  connected: boolean;
  lastError: string | null;
  lastErrorAt: number | null;
}

/** A Lua script run with EVALSHA, sent in full only when the server does not know it yet. */
export class LuaScript {
  readonly sha1: string;
  constructor(readonly source: string) {
    this.sha1 = createHash('sha1').update(source).digest('hex');
  }
}

/** Retry quickly at first, then every two seconds, forever: the gateway recovers by itself. */
const reconnectStrategy = (retries: number) => Math.min(50 * 2 ** Math.min(retries, 6), 2_000) + Math.floor(Math.random() * 100);

/**
 * One process's connection to the shared Redis: a command client and, duplicated from it, a
 * subscriber for pub/sub. Every store of the Redis mode shares it.
 *
 * Commands fail fast while Redis is unreachable (no offline queue), so reads can fall back to
 * local state at once; the subscriber keeps its queue so subscriptions made during an outage
 * are sent when it returns. Outages are logged once, at their start and their end.
 */
export class RedisConnection {
  readonly client: RedisClient;
  readonly subscriber: RedisClient;
  readonly keyPrefix: string;
  /** Identifies this process among the replicas (lease holder, origin of invalidations). */
  readonly replicaId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly logger: Logger;
  private outageSince: number | null = null;
  private lastError: string | null = null;
  private lastErrorAt: number | null = null;
  private closing = false;
  /** Outages are logged only once the first connection succeeded: a failing start reports itself. */
  private everReady = false;
  private readonly stateListeners = new Set<(connected: boolean) => void>();

  constructor(options: RedisConnectionOptions) {
    this.keyPrefix = options.keyPrefix;
    this.logger = options.logger.child({ component: 'redis' });
    this.client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      commandOptions: { timeout: options.commandTimeoutMs ?? 2_000 },
      socket: { reconnectStrategy, connectTimeout: 5_000 },
    });
    this.subscriber = this.client.duplicate({ disableOfflineQueue: false, commandOptions: {} });
    this.watch(this.client, 'commands');
    this.watch(this.subscriber, 'subscriber');
  }

  /** A key or channel name under this deployment's prefix. */
  key(...parts: (string | number)[]): string {
    return this.keyPrefix + parts.join(':');
  }

  /** True while both connections are ready. */
  get connected(): boolean {
    return this.client.isReady && this.subscriber.isReady;
  }

  state(): RedisConnectionState {
    return { connected: this.connected, lastError: this.lastError, lastErrorAt: this.lastErrorAt };
  }

  /** Called with `false` when an outage starts and `true` when both connections are ready again. */
  onStateChange(listener: (connected: boolean) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Connects both clients; resolves once both are ready. Rejects after `timeoutMs` and closes,
   * so a start-up against an unreachable Redis fails with a message naming it.
   */
  async open(timeoutMs = 15_000): Promise<void> {
    const ready = Promise.all(
      [this.client, this.subscriber].map((c) => (c.isReady ? undefined : new Promise<void>((resolve) => c.once('ready', () => resolve())))),
    );
    for (const c of [this.client, this.subscriber]) if (!c.isOpen) c.connect().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`REDIS_URL: Redis unreachable after ${timeoutMs} ms (${this.lastError ?? 'no answer'})`)), timeoutMs);
    });
    try {
      await Promise.race([ready, timeout]);
    } catch (e) {
      await this.close();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled(
      [this.client, this.subscriber].map(async (c) => {
        if (!c.isOpen) return;
        if (c.isReady) await c.close();
        else c.destroy();
      }),
    );
  }

  /** Runs a Lua script by SHA, loading it on NOSCRIPT (first use, or after a Redis restart); on `client`, a view of the command client. */
  async run(
    script: LuaScript,
    keys: readonly string[],
    args: readonly (string | number)[] = [],
    client: Pick<RedisClient, 'evalSha' | 'eval'> = this.client,
  ): Promise<unknown> {
    const options = { keys: [...keys], arguments: args.map(String) };
    try {
      return await client.evalSha(script.sha1, options);
    } catch (e) {
      if (e instanceof ErrorReply && e.message.startsWith('NOSCRIPT')) return client.eval(script.source, options);
      throw e;
    }
  }

  /** Runs Redis commands; a failure to reach Redis becomes the clean 503 instead of a masked 500. */
  async guard<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      throw isConnectionError(e) ? sharedStateUnavailable() : e;
    }
  }

  private watch(client: RedisClient, role: 'commands' | 'subscriber'): void {
    // Without an 'error' listener a lost connection would be an uncaught exception.
    client.on('error', (err: Error) => {
      this.lastError = `${role}: ${err.message || err.name}`;
      this.lastErrorAt = Date.now();
      this.markDown(role);
    });
    client.on('reconnecting', () => this.markDown(role));
    client.on('ready', () => this.markReady());
  }

  private markDown(role: string): void {
    if (this.closing || this.outageSince !== null) return;
    this.outageSince = Date.now();
    if (this.everReady) this.logger.warn({ role, err: this.lastError }, 'Redis unreachable: serving local state and retrying until it returns');
    for (const l of this.stateListeners) l(false);
  }

  private markReady(): void {
    const wasReady = this.everReady;
    if (this.connected) this.everReady = true;
    if (this.closing || !this.connected || this.outageSince === null) return;
    if (wasReady) this.logger.info({ downMs: Date.now() - this.outageSince }, 'Redis connection restored');
    this.outageSince = null;
    for (const l of this.stateListeners) l(true);
  }
}

const CONNECTION_ERRORS = [
  ClientClosedError,
  ClientOfflineError,
  SocketClosedUnexpectedlyError,
  ConnectionTimeoutError,
  SocketTimeoutError,
  TimeoutError,
  ReconnectStrategyError,
  DisconnectsClientError,
  AbortError,
];

/** A failure to reach Redis (offline, closed, timed out, refused), as opposed to an error reply or a bug. */
export function isConnectionError(e: unknown): boolean {
  if (CONNECTION_ERRORS.some((C) => e instanceof C)) return true;
  if (e instanceof GatewayError) return e.code === 'shared_state_unavailable';
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code); // ECONNREFUSED, ECONNRESET, EPIPE, ...
}
