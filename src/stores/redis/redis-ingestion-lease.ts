import type { Logger } from 'pino';
import type { IngestionLease, LeadershipHandlers } from '../../ingest/ingestion-lease.js';
import { isConnectionError, type RedisConnection } from './redis-connection.js';
import { LuaScript } from './redis-connection.js';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from './redis-scripts.js';

/**
 * KEYS[1] lease, KEYS[2] fencing counter; ARGV: replica id, ttl. Takes a free lease with the next
 * fencing token (`<replica>|<token>`), or names its holder.
 */
const ACQUIRE = new LuaScript(`
local holder = redis.call('GET', KEYS[1])
if holder then return {0, holder} end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. token, 'PX', ARGV[2])
return {1, tostring(token)}`);

export interface RedisIngestionLeaseOptions {
  /** Lifetime of the lease without renewal; a follower takes over at most about this long after the holder dies. */
  ttlMs: number;
  logger: Logger;
}

/**
 * The Redis lease on ingestion: `SET ingest:lease <replica> NX PX ttl` to take it, a Lua
 * compare-and-pexpire to renew it, compare-and-del to hand it back. The holder renews every
 * quarter of the ttl; followers try to take it as often. The holder counts its lease from when
 * it sent the renewal and gives up when that time passes without one (Redis unreachable) or when
 * a renewal finds another holder, before anyone else can have it.
 *
 * Each acquisition takes the next fencing token (a counter in Redis). The holder's snapshot
 * writes carry it and Redis refuses a write whose token is older than the newest issued
 * (RedisSnapshotCache), so a leader that was frozen past its lease (SIGSTOP, a paused
 * container, a long GC) cannot overwrite its successor's data when it resumes.
 */
export class RedisIngestionLease implements IngestionLease {
  private readonly key: string;
  private readonly fenceKey: string;
  /** The fencing token of the current term; undefined while not leading. */
  private token: number | undefined;
  /** The replica holding the lease as last seen, for the status route (read on every public request). */
  private lastLeader: string | null = null;
  private readonly tickMs: number;
  private heldUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private handlers: LeadershipHandlers | undefined;
  private stopped = false;
  private ticking: Promise<void> = Promise.resolve();
  /** Leadership terms start one after another; a term lost while starting is undone. */
  private starting: Promise<void> = Promise.resolve();
  private term = 0;
  private failing = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly options: RedisIngestionLeaseOptions,
  ) {
    this.key = redis.key('ingest', 'lease');
    this.fenceKey = redis.key('ingest', 'fence');
    this.tickMs = Math.max(100, Math.floor(options.ttlMs / 4));
  }

  get held(): boolean {
    return this.heldUntil > Date.now();
  }

  /**
   * The token of this replica's latest term, which ingest writes carry; Redis refuses it once a
   * newer term began. Kept after the term ends, so a write in flight then is refused, never
   * sent unfenced. Undefined only before this replica ever led (ingest driven by hand).
   */
  get fencingToken(): number | undefined {
    return this.token;
  }

  /** Which replica leads ingestion, as last seen by this one. */
  get leader(): string | null {
    if (this.held) return this.redis.replicaId;
    return this.lastLeader;
  }

  private get value(): string {
    return `${this.redis.replicaId}|${this.token}`;
  }

  async start(handlers: LeadershipHandlers): Promise<void> {
    this.handlers = handlers;
    this.stopped = false;
    await this.tick();
    this.schedule();
    await this.starting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await this.starting;
    if (this.heldUntil === 0) return;
    this.lose('stopping');
    await this.release();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => this.schedule());
    }, this.tickMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const sentAt = Date.now();
    try {
      if (this.heldUntil > 0) await this.renew(sentAt);
      else await this.acquire(sentAt);
      this.failing = false;
    } catch (e) {
      // Redis unreachable: the connection logs the outage; the lease lapses on its own clock.
      if (!isConnectionError(e) && !this.failing) this.options.logger.error({ err: e }, 'ingestion lease: unexpected error');
      this.failing = true;
      if (this.heldUntil > 0 && Date.now() >= this.heldUntil) this.lose('not renewed in time');
    }
  }

  private async acquire(sentAt: number): Promise<void> {
    const [won, holderOrToken] = (await this.redis.run(ACQUIRE, [this.key, this.fenceKey], [this.redis.replicaId, this.options.ttlMs])) as [number, string];
    if (won !== 1) {
      this.lastLeader = holderOrToken.split('|')[0]!;
      return;
    }
    this.token = Number(holderOrToken);
    this.lastLeader = this.redis.replicaId;
    if (this.stopped) return this.release();
    this.heldUntil = sentAt + this.options.ttlMs;
    const term = ++this.term;
    this.options.logger.info({ replica: this.redis.replicaId, fencingToken: this.token }, 'ingestion lease acquired: this replica runs ingestion');
    // Renewals go on while the term starts (backfill and the first poll can take seconds).
    this.starting = this.starting.then(() => this.begin(term));
  }

  private async begin(term: number): Promise<void> {
    if (term !== this.term) return;
    try {
      await this.handlers?.onAcquired();
    } catch (e) {
      this.options.logger.warn({ err: isConnectionError(e) ? String(e) : e }, 'ingestion did not start; handing the lease back');
      if (term === this.term) {
        this.lose('start failed');
        await this.release();
      }
      return;
    }
    if (term !== this.term) this.handlers?.onLost(); // lost while starting: stop what was started
  }

  private async renew(sentAt: number): Promise<void> {
    const renewed = await this.redis.run(COMPARE_AND_PEXPIRE, [this.key], [this.value, this.options.ttlMs]);
    if (renewed === 1) this.heldUntil = sentAt + this.options.ttlMs;
    else this.lose('taken by another replica or expired');
  }

  private async release(): Promise<void> {
    await this.redis.run(COMPARE_AND_DELETE, [this.key], [this.value]).catch(() => undefined);
  }

  private lose(reason: string): void {
    if (this.heldUntil === 0) return;
    this.heldUntil = 0;
    this.lastLeader = null;
    this.term++;
    if (reason === 'stopping') this.options.logger.info('ingestion lease released');
    else this.options.logger.warn({ reason }, 'ingestion lease lost: this replica stops ingesting');
    this.handlers?.onLost();
  }
}
