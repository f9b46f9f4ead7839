import { freshnessAt, type Freshness, type FreshnessBasis } from '../../src/domain/freshness.js';
import { withAnswerFacts, type AnswerFacts } from '../../src/http/rest/answer-facts.js';

/** Schema version carried by every public envelope. */
export const PUBLIC_SCHEMA_VERSION = 'service.public-data.v1';

/** Spec: Public envelope. */
export interface PublicEnvelope<T> {
  schemaVersion: string;
  generatedAt: number;
  freshness: Freshness;
  data: T;
}

/** Wraps a payload, returning with it its HTTP facts: its freshness (for Cache-Control) and status. */
export function publicEnvelope<T>(data: T, freshness: Freshness, now: number, status?: number, facts: AnswerFacts = {}): PublicEnvelope<T> {
  const envelope = { schemaVersion: PUBLIC_SCHEMA_VERSION, generatedAt: now, freshness, data };
  return withAnswerFacts(envelope, { ...facts, freshness, ...(status !== undefined ? { status } : {}) });
}

/** How an envelope's freshness values depend on time (see TimedAnswer): the envelope's basis first, then those of its data, in body order. */
export interface EnvelopeTiming {
  /** The snapshot cache's version, read before the data (undefined: not versioned, rendered every time). */
  version: string | undefined;
  now: number;
  freshness: FreshnessBasis[];
  /** A mirror's ETag from the version (when known) and the freshness values at `now`. */
  etag?: (version: string | undefined, freshness: readonly Freshness[]) => string;
  /** See TimedAnswer: members after the freshness values whose value is `now`, and what else the answer depends on. */
  instants?: readonly string[];
  standsAt?: (now: number) => boolean;
}

/**
 * An envelope whose freshness is computed from its bases at `now`; with a known version its
 * facts say how it depends on time, so the HTTP layer renders it once per version and re-times it
 * per request (src/http/rest/answer-cache.ts).
 */
export function timedEnvelope<T>(data: T, timing: EnvelopeTiming, status?: number): PublicEnvelope<T> {
  const { version, now, etag, instants, standsAt } = timing;
  const memo = new Map<FreshnessBasis, Freshness>();
  const values = timing.freshness.map((b) => freshnessAt(b, now, memo));
  const facts: AnswerFacts = {};
  if (version !== undefined)
    facts.timed = {
      version,
      now,
      freshness: timing.freshness,
      ...(etag ? { etag } : {}),
      ...(instants ? { instants } : {}),
      ...(standsAt ? { standsAt } : {}),
    };
  if (etag) facts.etag = etag(version, values);
  return publicEnvelope(data, values[0]!, now, status, facts);
}
