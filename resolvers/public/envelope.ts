import { freshnessAt, type Freshness, type FreshnessBasis } from '../../src/domain/freshness.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';

/** Schema version carried by every public envelope. */
export const PUBLIC_SCHEMA_VERSION = 'service.public-data.v1';

/** Spec: Public envelope. */
export interface PublicEnvelope<T> {
  schemaVersion: string;
  generatedAt: number;
  freshness: Freshness;
  data: T;
}

/** Wraps a payload and tells the HTTP layer its freshness (for Cache-Control) and status. */
export function publicEnvelope<T>(ctx: GatewayContext, data: T, freshness: Freshness, now: number, status?: number): PublicEnvelope<T> {
  if (ctx.http) {
    ctx.http.freshness = freshness;
    if (status !== undefined) ctx.http.status = status;
  }
  return { schemaVersion: PUBLIC_SCHEMA_VERSION, generatedAt: now, freshness, data };
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
 * An envelope whose freshness is computed from its bases at `now`; with a known version it is
 * recorded on the request as a timed answer, which the HTTP layer renders once per version and
 * re-times per request (src/http/rendered-answers.ts).
 */
export function timedEnvelope<T>(ctx: GatewayContext, data: T, timing: EnvelopeTiming, status?: number): PublicEnvelope<T> {
  const { version, now, etag, instants, standsAt } = timing;
  const memo = new Map<FreshnessBasis, Freshness>();
  const values = timing.freshness.map((b) => freshnessAt(b, now, memo));
  if (ctx.http) {
    if (version !== undefined)
      ctx.http.timed = {
        version,
        now,
        freshness: timing.freshness,
        ...(etag ? { etag } : {}),
        ...(instants ? { instants } : {}),
        ...(standsAt ? { standsAt } : {}),
      };
    if (etag) ctx.http.etag = etag(version, values);
  }
  return publicEnvelope(ctx, data, values[0]!, now, status);
}
