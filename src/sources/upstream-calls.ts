import type { UpstreamReport } from './market-data-source.js';
import type { RequestBudget, RequestPriority } from './request-budget.js';
import { UpstreamHealth } from './upstream-health.js';
import type { UpstreamObserver } from './upstream-observer.js';

/** A stream closed for longer than this counts as dead (the venue is down for the public plane). */
export const STREAM_DEAD_MS = 60_000;

/** A failed request as a venue's adapter classifies it: its /metrics outcome, the operator's words, and a 429's pause. */
export interface UpstreamFailure {
  /** `429`, `4xx`, `5xx`, `timeout` or `error`. */
  outcome: string;
  /** What went wrong: a status or a failure, never the answer's body nor a credential. */
  reason: string;
  /** A 429's Retry-After as sent (seconds or an HTTP date), or already in ms. */
  retryAfter?: string | null;
  retryAfterMs?: number;
}

/**
 * A real venue's requests behind its budget: each waits until its weight fits the minute (never
 * sent over it), a 429 pauses every request by its Retry-After (no retry storm: the caller's next
 * round asks again), and each outcome is counted for /metrics and the source's health.
 */
export class UpstreamCalls {
  private readonly health: UpstreamHealth;

  constructor(
    private readonly venue: string,
    private readonly budget: RequestBudget,
    private readonly observer: UpstreamObserver,
    private readonly classify: (err: unknown) => UpstreamFailure,
    now: () => number = Date.now,
  ) {
    this.health = new UpstreamHealth(budget, now);
  }

  /** Sends one request of `type` once `weight` fits in `priority`'s share; a failure is rethrown in the operator's words. */
  async call<T>(type: string, weight: number, priority: RequestPriority, send: () => Promise<T>): Promise<T> {
    await this.budget.take(weight, priority);
    try {
      const answer = await send();
      this.observer.request(this.venue, type, '200');
      this.health.succeeded();
      return answer;
    } catch (err) {
      const failure = this.classify(err);
      this.observer.request(this.venue, type, failure.outcome);
      const reason = `${type}: ${failure.reason}`;
      this.health.failed(
        reason,
        failure.outcome === '429' ? { retryAfter: failure.retryAfter, ...(failure.retryAfterMs ? { retryAfterMs: failure.retryAfterMs } : {}) } : undefined,
      );
      throw new Error(reason, { cause: err });
    }
  }

  /**
   * Degraded from a 429 until a request succeeds after it, or while the latest request failed
   * (UpstreamHealth); down when the stream has been closed for longer than {@link STREAM_DEAD_MS}.
   */
  report(streamClosedForMs = 0): UpstreamReport {
    const report = this.health.report();
    if (streamClosedForMs > STREAM_DEAD_MS)
      return { ...report, status: 'down', reason: `the venue's stream has been closed for ${Math.round(streamClosedForMs / 1000)} s` };
    return report;
  }
}

/**
 * How long a venue's stream has been closed: closed from its start until it opens, and from each
 * close until it opens again. An open after the first is a reconnect, counted in /metrics.
 */
export class StreamLiveness {
  private closedSince: number | undefined;
  private opened = false;

  constructor(
    private readonly venue: string,
    private readonly observer: UpstreamObserver,
    private readonly now: () => number = Date.now,
  ) {}

  /** A (new) connection is being made: closed until it opens. */
  starting(): void {
    this.closedSince = this.now();
  }

  open(): void {
    if (this.opened) this.observer.reconnect(this.venue);
    this.opened = true;
    this.closedSince = undefined;
  }

  closed(): void {
    this.closedSince ??= this.now();
  }

  /** Milliseconds the stream has been closed (0 while open). */
  closedFor(): number {
    return this.closedSince === undefined ? 0 : this.now() - this.closedSince;
  }
}
