import type { UpstreamReport } from './market-data-source.js';
import type { RequestBudget } from './request-budget.js';

/** How long a 429 without a usable Retry-After pauses every request. */
const DEFAULT_PAUSE_MS = 10_000;

/**
 * A 429's Retry-After as the pause it asks for, in ms: delta-seconds or an HTTP date (RFC 9110
 * 10.2.3); `fallbackMs` when the header is absent or unreadable.
 */
export function retryAfterMs(header: string | null | undefined, now: number, fallbackMs = DEFAULT_PAUSE_MS): number {
  if (!header) return fallbackMs;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1_000;
  const at = Date.parse(header);
  return Number.isFinite(at) && at > now ? at - now : fallbackMs;
}

/**
 * What a real venue's requests have shown of its upstream, request by request: a 429 pauses every
 * request of its budget by its Retry-After (never a retry storm), and the report says degraded
 * from it until a request succeeds after it, or while the latest request failed; the poll's own
 * failures in a row decide "down".
 */
export class UpstreamHealth {
  private consecutiveFailures = 0;
  private last429At = -Infinity;
  private lastSuccessAt = -Infinity;
  private lastError: string | null = null;

  constructor(
    private readonly budget: RequestBudget,
    private readonly now: () => number = Date.now,
  ) {}

  succeeded(): void {
    this.consecutiveFailures = 0;
    this.lastSuccessAt = this.now();
  }

  /**
   * A failed request, in the operator's words; a 429 also pauses the budget by its Retry-After
   * (the header as sent, or already in ms).
   */
  failed(reason: string, rateLimited?: { retryAfter?: string | null | undefined; retryAfterMs?: number }): void {
    this.consecutiveFailures += 1;
    this.lastError = reason;
    if (rateLimited) {
      const now = this.now();
      this.last429At = now;
      const pause =
        rateLimited.retryAfterMs !== undefined && rateLimited.retryAfterMs > 0 ? rateLimited.retryAfterMs : retryAfterMs(rateLimited.retryAfter, now);
      this.budget.pauseUntil(now + pause);
    }
  }

  report(): UpstreamReport {
    const throttled = this.last429At > this.lastSuccessAt;
    const failing = this.consecutiveFailures > 0;
    return {
      status: throttled || failing ? 'degraded' : 'healthy',
      reason: throttled ? 'rate limited by the venue (429): requests paused by its Retry-After' : failing ? this.lastError : null,
      weightLastMinute: this.budget.spentLastMinute(),
      budgetPerMinute: this.budget.perMinute,
    };
  }
}
