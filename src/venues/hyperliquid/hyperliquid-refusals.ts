import { ApiRequestError, HttpRequestError, ValidationError } from '@nktkas/hyperliquid';
import { VenueRefusal } from '../../execution/venues/routed-venue.js';
import { retryAfterMs } from '../../sources/upstream-health.js';

/**
 * What became of an order or a cancel the venue did not accept, by what it said:
 * - `refused`: nothing was placed (a public code and the venue's words);
 * - `unmatched`: an immediate-or-cancel order that matched nothing: the venue took it and
 *   cancelled it at once, so the execution ends `rejected` with the venue's reason (as a paper
 *   IOC that does not cross does), not an error;
 * - `duplicate`: the venue already holds an order of this cloid (a retry): that order is the answer;
 * - `unknown`: it may have reached the venue (a timeout, a cut connection, a 5xx): looked up by cloid.
 */
export type ExchangeFailure =
  | { kind: 'refused'; refusal: VenueRefusal }
  | { kind: 'unmatched'; reason: string }
  | { kind: 'duplicate'; reason: string }
  | { kind: 'unknown'; reason: string };

/**
 * The venue's order refusals and the public code each maps to. Insufficient margin is
 * INSUFFICIENT_BALANCE. A post-only order that would cross, and the venue's price bands (too far
 * from the oracle, open-interest caps, reduce-only) are POLICY_DENIED: the order is well formed
 * but the venue's trading rule refuses it now, and changing the order (its price) is the way
 * out. Tick, lot and minimum-value breaches are INVALID_REQUEST (400 on `assetIn`), the same
 * code the preview's rule checks give. An API wallet the venue does not know, a nonce it refuses
 * and an action past its expiresAfter are VENUE_UNHEALTHY: the gateway's side, nothing the
 * caller can change.
 */
const ORDER_ERRORS: readonly [RegExp, 'unmatched' | 'duplicate' | VenueRefusal['code']][] = [
  [/^Insufficient margin/i, 'INSUFFICIENT_BALANCE'],
  [/^Post only order would have immediately matched/i, 'POLICY_DENIED'],
  [/invalid price|invalid size|minimum value of|divisible by tick size|Invalid TP\/SL price/i, 'INVALID_REQUEST'],
  [/could not immediately match|No liquidity available for market order/i, 'unmatched'],
  [/cloid that was already used|duplicate cloid/i, 'duplicate'],
  [/does not exist|Must deposit before performing actions|Invalid nonce|Invalid signature|already expired/i, 'VENUE_UNHEALTHY'],
];

/** An error text of the venue (an order's status, or an `err` answer) as a failure. */
export function venueErrorFailure(message: string): ExchangeFailure {
  const kind = ORDER_ERRORS.find(([pattern]) => pattern.test(message))?.[1] ?? 'POLICY_DENIED';
  if (kind === 'unmatched' || kind === 'duplicate') return { kind, reason: message };
  return { kind: 'refused', refusal: new VenueRefusal(kind, message, kind === 'VENUE_UNHEALTHY' ? { retryable: true } : {}) };
}

/** The text of an ApiRequestError: the first order's error, or the `err` answer's. */
function apiErrorText(err: ApiRequestError): string {
  const response = err.response as { status?: string; response?: unknown } | undefined;
  if (response?.status === 'err' && typeof response.response === 'string') return response.response;
  const statuses = (response?.response as { data?: { statuses?: unknown[] } } | undefined)?.data?.statuses ?? [];
  const first = statuses.find((s): s is { error: string } => typeof s === 'object' && s !== null && typeof (s as { error?: unknown }).error === 'string');
  return first?.error ?? err.message;
}

/**
 * A failed exchange request as a failure: the venue's refusal when it answered one; a 429 is
 * VENUE_UNHEALTHY with its Retry-After; a request refused before it was sent (the SDK's checks, a
 * connection refused) placed nothing; anything after sending without an answer is unknown.
 */
export function exchangeFailure(err: unknown, now = Date.now()): ExchangeFailure {
  if (err instanceof ApiRequestError) return venueErrorFailure(apiErrorText(err));
  if (err instanceof ValidationError) return { kind: 'refused', refusal: new VenueRefusal('INVALID_REQUEST', err.message) };
  if (err instanceof HttpRequestError) {
    const status = err.response?.status;
    if (status === 429) {
      const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs(err.response?.headers.get('retry-after'), now, 1_000) / 1_000));
      return { kind: 'refused', refusal: new VenueRefusal('VENUE_UNHEALTHY', '429 Too Many Requests', { retryable: true, retryAfterSeconds }) };
    }
    if (status !== undefined && status >= 400 && status < 500)
      return {
        kind: 'refused',
        refusal: new VenueRefusal('INVALID_REQUEST', `the venue refused the request (${status} ${err.response?.statusText ?? ''})`.trim()),
      };
    if (status !== undefined) return { kind: 'unknown', reason: `the venue answered ${status}` };
    const cause = err.cause as { name?: string; cause?: { code?: string } } | undefined;
    if (cause?.cause?.code === 'ECONNREFUSED')
      return { kind: 'refused', refusal: new VenueRefusal('VENUE_UNHEALTHY', 'the venue refused the connection', { retryable: true }) };
    if (cause?.name === 'TimeoutError' || cause?.name === 'AbortError') return { kind: 'unknown', reason: 'no answer within the timeout' };
    return { kind: 'unknown', reason: 'the connection failed after sending' };
  }
  return { kind: 'unknown', reason: err instanceof Error ? err.message : String(err) };
}
