import type { Logger } from 'pino';
import type { IngestionLease, LeadershipHandlers } from '../../ingest/ingestion-lease.js';
import { isConnectionError, type RedisConnection } from './redis-connection.js';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from './redis-scripts.js';

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
 */
export class RedisIngestionLease implements IngestionLease {
  private readonly key: string;
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
    this.tickMs = Math.max(100, Math.floor(options.ttlMs / 4));
  }

  get held(): boolean {
    return this.heldUntil > Date.now();
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
    const won = await this.redis.client.set(this.key, this.redis.replicaId, { condition: 'NX', expiration: { type: 'PX', value: this.options.ttlMs } });
    if (won !== 'OK') return;
    if (this.stopped) return this.release();
    this.heldUntil = sentAt + this.options.ttlMs;
    const term = ++this.term;
    this.options.logger.info({ replica: this.redis.replicaId }, 'ingestion lease acquired: this replica runs ingestion');
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
    const renewed = await this.redis.run(COMPARE_AND_PEXPIRE, [this.key], [this.redis.replicaId, this.options.ttlMs]);
    if (renewed === 1) this.heldUntil = sentAt + this.options.ttlMs;
    else this.lose('taken by another replica or expired');
  }

  private async release(): Promise<void> {
    await this.redis.run(COMPARE_AND_DELETE, [this.key], [this.redis.replicaId]).catch(() => undefined);
  }

  private lose(reason: string): void {
    if (this.heldUntil === 0) return;
    this.heldUntil = 0;
    this.term++;
    if (reason === 'stopping') this.options.logger.info('ingestion lease released');
    else this.options.logger.warn({ reason }, 'ingestion lease lost: this replica stops ingesting');
    this.handlers?.onLost();
  }
}
