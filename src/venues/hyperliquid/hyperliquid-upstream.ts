import { HttpRequestError, HttpTransport, type IRequestTransport } from '@nktkas/hyperliquid';
import type { UpstreamReport } from '../../sources/market-data-source.js';
import type { RequestBudget, RequestPriority } from '../../sources/request-budget.js';
import { UpstreamHealth } from '../../sources/upstream-health.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { infoWeight, itemsWeight } from './hyperliquid-weights.js';

const INTERVAL_MS: Record<string, number> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 };

/**
 * The SDK's HTTP transport behind the venue's budget: each request waits until its weight fits
 * the minute (estimated before it is sent, from the range it asks for, so the budget is never
 * passed), a 429 pauses every request by its Retry-After (no retry storm: the caller's next
 * round asks again), and each outcome is counted for /metrics and the source's health. The poll
 * and the history backfill each get a transport of their own priority over the one budget.
 */
export class HyperliquidUpstream {
  private readonly isTestnet: boolean;
  private readonly http: HttpTransport;
  private readonly health: UpstreamHealth;

  constructor(
    private readonly venue: string,
    settings: { network: 'mainnet' | 'testnet'; apiUrl: string; timeoutMs: number },
    private readonly budget: RequestBudget,
    private readonly observer: UpstreamObserver,
    private readonly now: () => number = Date.now,
  ) {
    this.isTestnet = settings.network === 'testnet';
    this.http = new HttpTransport({ isTestnet: this.isTestnet, apiUrl: settings.apiUrl, timeout: settings.timeoutMs });
    this.health = new UpstreamHealth(budget, now);
  }

  /** A transport for the SDK's clients whose requests wait in `priority`'s line. */
  transport(priority: RequestPriority): IRequestTransport {
    return { isTestnet: this.isTestnet, request: (endpoint, payload, signal) => this.request(priority, endpoint, payload, signal) };
  }

  private async request<T>(priority: RequestPriority, endpoint: 'info' | 'exchange' | 'explorer', payload: unknown, signal?: AbortSignal): Promise<T> {
    const type = endpoint === 'info' ? String((payload as { type?: unknown }).type ?? 'info') : endpoint;
    await this.budget.take(endpoint === 'info' ? estimatedWeight(type, payload, this.now()) : 1, priority);
    try {
      const answer = await this.http.request<T>(endpoint, payload, signal);
      this.observer.request(this.venue, type, '200');
      this.health.succeeded();
      return answer;
    } catch (err) {
      const outcome = outcomeOf(err);
      this.observer.request(this.venue, type, outcome);
      const reason = `${type}: ${describe(err, outcome)}`;
      this.health.failed(reason, outcome === '429' ? { retryAfter: (err as HttpRequestError).response?.headers.get('retry-after') } : undefined);
      throw new Error(reason, { cause: err });
    }
  }

  /** Degraded from a 429 until a request succeeds after it, or while the latest request failed (UpstreamHealth). */
  report(): UpstreamReport {
    return this.health.report();
  }
}

/** A request's weight as the venue will count it, from what it asks for (a time range's items counted at most). */
function estimatedWeight(type: string, payload: unknown, now: number): number {
  const p = payload as { req?: { interval?: string; startTime?: number; endTime?: number }; startTime?: number; endTime?: number };
  if (type === 'candleSnapshot' && p.req?.interval && INTERVAL_MS[p.req.interval]) {
    const span = (p.req.endTime ?? now) - (p.req.startTime ?? now);
    return infoWeight(type) + itemsWeight(type, Math.min(5_000, Math.ceil(span / INTERVAL_MS[p.req.interval]!) + 1));
  }
  if (type === 'fundingHistory')
    return infoWeight(type) + itemsWeight(type, Math.min(500, Math.ceil(((p.endTime ?? now) - (p.startTime ?? now)) / 3_600_000) + 1));
  return infoWeight(type);
}

function outcomeOf(err: unknown): string {
  if (err instanceof HttpRequestError) {
    const status = err.response?.status;
    if (status === 429) return '429';
    if (status !== undefined) return status >= 500 ? '5xx' : '4xx';
    const cause = (err as { cause?: { name?: string } }).cause;
    return cause?.name === 'TimeoutError' || cause?.name === 'AbortError' ? 'timeout' : 'error';
  }
  return 'error';
}

/** What went wrong, in the operator's words: the status or the failure, never the answer's body. */
function describe(err: unknown, outcome: string): string {
  if (outcome === 'timeout') return 'no answer within the timeout';
  if (err instanceof HttpRequestError && err.response) return `${err.response.status} ${err.response.statusText}`.trim();
  const cause = (err as { cause?: { name?: string; message?: string } }).cause;
  return cause?.name === 'SyntaxError' ? 'the answer was not valid JSON' : (cause?.message ?? (err instanceof Error ? err.message : String(err)));
}
