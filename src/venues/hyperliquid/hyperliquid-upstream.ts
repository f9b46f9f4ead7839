import { HttpRequestError, HttpTransport, type IRequestTransport } from '@nktkas/hyperliquid';
import type { UpstreamReport } from '../../sources/market-data-source.js';
import type { RequestBudget, RequestPriority } from '../../sources/request-budget.js';
import { UpstreamCalls, type UpstreamFailure } from '../../sources/upstream-calls.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { infoWeight, itemsWeight } from './hyperliquid-weights.js';

const INTERVAL_MS: Record<string, number> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 };

/**
 * The SDK's HTTP transport behind the venue's budget (src/sources/upstream-calls.ts): each
 * request's weight is estimated before it is sent, from the range it asks for, so the budget is
 * never passed. The poll and the history backfill each get a transport of their own priority
 * over the one budget.
 */
export class HyperliquidUpstream {
  private readonly isTestnet: boolean;
  private readonly http: HttpTransport;
  private readonly calls: UpstreamCalls;

  constructor(
    venue: string,
    settings: { network: 'mainnet' | 'testnet'; apiUrl: string; timeoutMs: number },
    budget: RequestBudget,
    observer: UpstreamObserver,
    private readonly now: () => number = Date.now,
  ) {
    this.isTestnet = settings.network === 'testnet';
    this.http = new HttpTransport({ isTestnet: this.isTestnet, apiUrl: settings.apiUrl, timeout: settings.timeoutMs });
    this.calls = new UpstreamCalls(venue, budget, observer, classify, now);
  }

  /** A transport for the SDK's clients whose requests wait in `priority`'s line. */
  transport(priority: RequestPriority): IRequestTransport {
    return { isTestnet: this.isTestnet, request: (endpoint, payload, signal) => this.request(priority, endpoint, payload, signal) };
  }

  private request<T>(priority: RequestPriority, endpoint: 'info' | 'exchange' | 'explorer', payload: unknown, signal?: AbortSignal): Promise<T> {
    const type = endpoint === 'info' ? String((payload as { type?: unknown }).type ?? 'info') : endpoint;
    const weight = endpoint === 'info' ? estimatedWeight(type, payload, this.now()) : 1;
    return this.calls.call(type, weight, priority, () => this.http.request<T>(endpoint, payload, signal));
  }

  report(streamClosedForMs = 0): UpstreamReport {
    return this.calls.report(streamClosedForMs);
  }
}

/** A request's weight as the venue will count it, from what it asks for (a time range's items counted at most). */
export function estimatedWeight(type: string, payload: unknown, now: number): number {
  const p = payload as { req?: { interval?: string; startTime?: number; endTime?: number }; startTime?: number; endTime?: number };
  if (type === 'candleSnapshot' && p.req?.interval && INTERVAL_MS[p.req.interval]) {
    const span = (p.req.endTime ?? now) - (p.req.startTime ?? now);
    return infoWeight(type) + itemsWeight(type, Math.min(5_000, Math.ceil(span / INTERVAL_MS[p.req.interval]!) + 1));
  }
  if (type === 'fundingHistory')
    return infoWeight(type) + itemsWeight(type, Math.min(500, Math.ceil(((p.endTime ?? now) - (p.startTime ?? now)) / 3_600_000) + 1));
  return infoWeight(type);
}

/** A failed request's outcome and what went wrong, in the operator's words: the status or the failure, never the answer's body. */
function classify(err: unknown): UpstreamFailure {
  if (err instanceof HttpRequestError) {
    const response = err.response;
    if (response) {
      const outcome = response.status === 429 ? '429' : response.status >= 500 ? '5xx' : '4xx';
      return { outcome, reason: `${response.status} ${response.statusText}`.trim(), retryAfter: response.headers.get('retry-after') };
    }
  }
  const cause = (err as { cause?: { name?: string; message?: string } }).cause;
  if (err instanceof HttpRequestError && (cause?.name === 'TimeoutError' || cause?.name === 'AbortError'))
    return { outcome: 'timeout', reason: 'no answer within the timeout' };
  return {
    outcome: 'error',
    reason: cause?.name === 'SyntaxError' ? 'the answer was not valid JSON' : (cause?.message ?? (err instanceof Error ? err.message : String(err))),
  };
}
