import { HttpRequestError, type IRequestTransport } from '@nktkas/hyperliquid';
import type { RequestBudget } from '../../sources/request-budget.js';
import { retryAfterMs } from '../../sources/upstream-health.js';
import { estimatedWeight } from './hyperliquid-upstream.js';
import { itemsWeight } from './hyperliquid-weights.js';

/** The venue counts an action as one request plus one per 40 orders or cancels in it (docs, "Rate limits and user limits"). */
function actionWeight(payload: unknown): number {
  const action = (payload as { action?: { orders?: unknown[]; cancels?: unknown[] } } | undefined)?.action;
  const batch = action?.orders?.length ?? action?.cancels?.length ?? 0;
  return 1 + Math.floor(batch / 40);
}

/**
 * The trading adapter's requests (orders, cancels, look-ups, fills, the account) on the venue's
 * one weight budget, the one its market data spends (the venue limits weight per IP, whoever
 * sends it): each is charged at its weight when sent, never waiting behind the data (an order
 * goes at once; the data's polls and backfill then wait for the room it took), a time-range
 * answer's items charged when they arrive, and a 429 pausing the budget by its Retry-After so
 * the data backs off too.
 */
export function chargedTransport(http: IRequestTransport, budget: RequestBudget | undefined, now: () => number): IRequestTransport {
  if (!budget) return http;
  return {
    isTestnet: http.isTestnet,
    async request<T>(endpoint: 'info' | 'exchange' | 'explorer', payload: unknown, signal?: AbortSignal): Promise<T> {
      const type = endpoint === 'info' ? String((payload as { type?: unknown }).type ?? 'info') : endpoint;
      budget.charge(endpoint === 'info' ? estimatedWeight(type, payload, now()) : actionWeight(payload));
      try {
        const answer = await http.request<T>(endpoint, payload, signal);
        if (Array.isArray(answer)) budget.charge(itemsWeight(type, answer.length));
        return answer;
      } catch (err) {
        if (err instanceof HttpRequestError && err.response?.status === 429)
          budget.pauseUntil(now() + retryAfterMs(err.response.headers.get('retry-after'), now(), 1_000));
        throw err;
      }
    },
  };
}
