import { ApiError, FetchError, marketData, trading } from '@alpacahq/alpaca-trade-api';
import type { UpstreamReport } from '../../sources/market-data-source.js';
import type { RequestBudget } from '../../sources/request-budget.js';
import { UpstreamCalls, type UpstreamFailure } from '../../sources/upstream-calls.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import type { AlpacaSettings } from './alpaca-settings.js';

/** `stockBars` answers at most this many bars a page (counted over its symbols). */
export const BARS_PAGE_LIMIT = 10_000;

/**
 * Alpaca's REST APIs through the SDK's own classes, pointed at the configured hosts (the v4
 * facade has no base-URL option; the raw classes take `basePath`, which is also how a proxy or
 * the tests' fake is reached). Their retry and rate limiter stay off: every request waits in the
 * venue's budget instead, one request each, and a 429 pauses them all by its Retry-After
 * (src/sources/upstream-calls.ts). The poll reads snapshots and the market clock; the history
 * backfill reads bars in the background.
 */
export class AlpacaUpstream {
  private readonly calls: UpstreamCalls;
  private readonly stocks: marketData.StockApi;
  private readonly clockApi: trading.ClockApi;

  constructor(
    venue: string,
    private readonly settings: AlpacaSettings,
    budget: RequestBudget,
    observer: UpstreamObserver,
    now: () => number = Date.now,
  ) {
    const common = { keyId: settings.keyId, secret: settings.secret, timeoutMs: settings.timeoutMs };
    this.stocks = new marketData.StockApi(new marketData.Configuration({ basePath: settings.dataUrl.replace(/\/+$/, ''), ...common }));
    this.clockApi = new trading.ClockApi(new trading.Configuration({ basePath: settings.tradingUrl.replace(/\/+$/, ''), ...common }));
    this.calls = new UpstreamCalls(venue, budget, observer, alpacaFailure, now);
  }

  /** Latest trade, quote, minute bar, daily bar and previous daily bar per symbol (null for a symbol the venue does not know). */
  snapshots(symbols: readonly string[]): Promise<Record<string, marketData.StockSnapshot | null | undefined>> {
    return this.calls.call('snapshots', 1, 'poll', () => this.stocks.stockSnapshots({ symbols: symbols.join(','), feed: this.settings.feed }));
  }

  /** The market clock (whether the regular session is open, and its next open and close). */
  clock(): Promise<trading.LegacyClock> {
    return this.calls.call('clock', 1, 'poll', () => this.clockApi.legacyClock());
  }

  /** One page of a symbol's bars from `start`, oldest first, as traded (not adjusted: what is stored is never rewritten). */
  bars(symbol: string, timeframe: string, start: Date, pageToken?: string): Promise<marketData.StockBarsResp> {
    return this.calls.call('bars', 1, 'background', () =>
      this.stocks.stockBars({
        symbols: symbol,
        timeframe,
        start,
        limit: BARS_PAGE_LIMIT,
        feed: this.settings.feed,
        adjustment: 'raw',
        sort: 'asc',
        ...(pageToken ? { pageToken } : {}),
      }),
    );
  }

  report(streamClosedForMs = 0): UpstreamReport {
    return this.calls.report(streamClosedForMs);
  }
}

/**
 * A failed request's outcome and what went wrong, in the operator's words: the status (a refused
 * key named as such) or the failure, never the answer's body, which a proxy could fill with
 * anything, nor a header.
 */
export function alpacaFailure(err: unknown): UpstreamFailure {
  if (err instanceof ApiError) {
    const outcome = err.status === 429 ? '429' : err.status >= 500 ? '5xx' : '4xx';
    const refused = err.status === 401 || err.status === 403 ? ' (the venue refused the keys or the feed)' : '';
    return { outcome, reason: `${err.status}${refused}`, ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}) };
  }
  if (err instanceof FetchError) {
    const name = err.cause?.name;
    if (name === 'TimeoutError' || name === 'AbortError') return { outcome: 'timeout', reason: 'no answer within the timeout' };
    return { outcome: 'error', reason: 'the request failed (no answer from the venue)' };
  }
  if (err instanceof SyntaxError) return { outcome: 'error', reason: 'the answer was not valid JSON' };
  return { outcome: 'error', reason: err instanceof Error ? err.message : String(err) };
}
