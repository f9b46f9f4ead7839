import { ApiError, FetchError } from '@alpacahq/alpaca-trade-api';
import { VenueOutcomeUnknown, VenueRefusal } from '../../execution/venues/routed-venue.js';

/** Alpaca's answer to a second order of one client order id (422, code 40010001). */
const DUPLICATE = /client_order_id must be unique/i;
const SHORT_OF_FUNDS = /insufficient (day trading )?buying power|insufficient qty|not allowed to short/i;
const CLOSED = /market (is )?closed/i;

/** The venue's message as a reason: one line, bounded (a proxy's page is never passed on whole). */
export function venueWords(err: ApiError): string {
  const text = (err.message || `HTTP ${err.status}`).replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Whole seconds of a 429's Retry-After (at least one). */
const retryAfterSeconds = (err: ApiError) => Math.max(1, Math.ceil((err.retryAfterMs ?? 1_000) / 1_000));

/**
 * A refusal Alpaca answered to an order or a cancel (nothing placed or changed there) as the
 * public code it maps to, with Alpaca's words: 403 buying power or quantity → INSUFFICIENT_BALANCE,
 * market closed → VENUE_UNHEALTHY, other 403 → POLICY_DENIED; 400, 404, 422 → INVALID_REQUEST;
 * 429 → VENUE_UNHEALTHY with its Retry-After; 401 → VENUE_UNHEALTHY (the operator's keys).
 * Undefined when the failure is no refusal (a 5xx, a timeout, a cut connection: the outcome is unknown).
 */
export function alpacaRefusal(err: unknown): VenueRefusal | undefined {
  if (!(err instanceof ApiError) || err.status >= 500 || err.status === 408) return undefined;
  const words = venueWords(err);
  if (err.status === 429)
    return new VenueRefusal('VENUE_UNHEALTHY', `Alpaca's rate limit: ${words}`, { retryable: true, retryAfterSeconds: retryAfterSeconds(err) });
  if (err.status === 401) return new VenueRefusal('VENUE_UNHEALTHY', 'Alpaca refused the gateway’s keys (401)', { retryable: true });
  if (err.status === 403) {
    if (CLOSED.test(words)) return new VenueRefusal('VENUE_UNHEALTHY', words, { retryable: true });
    return new VenueRefusal(SHORT_OF_FUNDS.test(words) ? 'INSUFFICIENT_BALANCE' : 'POLICY_DENIED', words);
  }
  return new VenueRefusal('INVALID_REQUEST', words);
}

/** Alpaca already holds an order of this client order id (a retry of one whose answer was lost). */
export const isDuplicateOrder = (err: unknown): boolean => err instanceof ApiError && err.status === 422 && DUPLICATE.test(err.message);

/** An order sent without an answer that says what became of it: its outcome is looked up by client order id. */
export function outcomeUnknown(err: unknown): VenueOutcomeUnknown {
  if (err instanceof ApiError) return new VenueOutcomeUnknown(`Alpaca answered ${err.status}; the order may have been placed`);
  if (err instanceof FetchError) {
    const name = err.cause?.name;
    return new VenueOutcomeUnknown(
      name === 'TimeoutError' || name === 'AbortError' ? 'no answer from Alpaca within the timeout' : 'the connection to Alpaca failed without an answer',
    );
  }
  if (err instanceof SyntaxError) return new VenueOutcomeUnknown('Alpaca’s answer could not be read');
  return new VenueOutcomeUnknown(err instanceof Error ? err.message : String(err));
}

/** A failed read in the operator's words (a status, or what went wrong): never a body nor a header. */
export function readFailure(what: string, err: unknown): string {
  if (err instanceof ApiError) return `Alpaca answered ${what} with ${err.status}${err.status === 401 || err.status === 403 ? ' (the keys were refused)' : ''}`;
  if (err instanceof FetchError) {
    const name = err.cause?.name;
    return `Alpaca did not answer ${what} (${name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'connection failed'})`;
  }
  return `Alpaca's answer to ${what} could not be read`;
}
