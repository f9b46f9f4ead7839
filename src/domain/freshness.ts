import { worstStatus, type SourceHealth, type SourceStatus } from './source-health.js';

/** Spec: Freshness object. */
export interface Freshness {
  asOf: string;
  freshnessMs: number;
  stale: boolean;
  staleReason: string | null;
  sourceStatus: SourceStatus;
}

export const MAX_AGE_MS = { default: 60_000, orderBook: 5_000 } as const;

/** `history_backfilling`: a real venue's history of the market is still being fetched (its first read answers at once, saying so). */
export type StaleReason = 'max_age_exceeded' | 'source_down' | 'no_snapshot' | 'not_found' | 'history_backfilling';

/** Why a response has no data behind it. */
export type MissingReason = 'not_found' | 'no_snapshot' | 'history_backfilling';

/**
 * Freshness of data observed at `asOf`, computed at request time (DESIGN: Data plane).
 * Stale when older than `maxAgeMs` or when its source is down.
 */
export function freshnessOf(asOf: number, sourceStatus: SourceStatus, maxAgeMs: number, now: number): Freshness {
  return agedFreshness(new Date(asOf).toISOString(), asOf, sourceStatus, maxAgeMs, now);
}

function agedFreshness(asOfIso: string, asOf: number, sourceStatus: SourceStatus, maxAgeMs: number, now: number): Freshness {
  const freshnessMs = Math.max(0, now - asOf);
  const staleReason: StaleReason | null = sourceStatus === 'down' ? 'source_down' : freshnessMs > maxAgeMs ? 'max_age_exceeded' : null;
  return { asOf: asOfIso, freshnessMs, stale: staleReason !== null, staleReason, sourceStatus };
}

/** Freshness of a response that has no data behind it (unknown market, never ingested). */
export function missingFreshness(reason: MissingReason, sourceStatus: SourceStatus, now: number): Freshness {
  return { asOf: new Date(now).toISOString(), freshnessMs: 0, stale: true, staleReason: reason, sourceStatus };
}

/** Freshness of an aggregate: as old as its oldest part, stale if any part is. */
export function combineFreshness(parts: Freshness[], fallback: Freshness): Freshness {
  return parts.length === 0 ? fallback : combineParts(parts);
}

function combineParts(parts: Freshness[]): Freshness {
  let oldest = parts[0]!;
  let stalePart: Freshness | undefined;
  for (const p of parts) {
    if (p.freshnessMs > oldest.freshnessMs) oldest = p;
    if (p.stale && !stalePart) stalePart = p;
  }
  const sourceStatus = worstStatus(parts.map((p) => p.sourceStatus));
  return {
    asOf: oldest.asOf,
    freshnessMs: oldest.freshnessMs,
    stale: stalePart !== undefined,
    staleReason: stalePart?.staleReason ?? null,
    sourceStatus,
  };
}

/** Freshness of what a source last delivered: its last success, aged; missing when it never answered. */
export function sourceFreshness(health: SourceHealth | undefined, now: number): Freshness {
  return freshnessAt(sourceFreshnessBasis(health), now);
}

/** What sourceFreshness is computed from. */
export function sourceFreshnessBasis(health: SourceHealth | undefined): FreshnessBasis {
  if (!health?.lastSuccessAt) return { missing: 'no_snapshot', sourceStatus: health?.status ?? 'unknown' };
  return { asOf: health.lastSuccessAt, sourceStatus: health.status, maxAgeMs: MAX_AGE_MS.default };
}

/**
 * What a freshness is computed from, without the instant: the same value at any `now` through
 * `freshnessAt`. A response rendered once per snapshot version keeps these and recomputes only
 * its freshness per request.
 */
export type FreshnessBasis =
  /** `asOfIso`, when set, is `asOf` as toISOString gives it (kept by a basis reused across requests). */
  | { asOf: number; sourceStatus: SourceStatus; maxAgeMs: number; asOfIso?: string }
  | { missing: MissingReason; sourceStatus: SourceStatus }
  | { parts: FreshnessBasis[]; fallback: FreshnessBasis };

/**
 * The freshness of a basis at `now` (freshnessOf, missingFreshness or combineFreshness of its
 * parts). `memo` shares one computation per basis object within one instant (an aggregate and
 * its parts in the same answer).
 */
export function freshnessAt(basis: FreshnessBasis, now: number, memo?: Map<FreshnessBasis, Freshness>): Freshness {
  const known = memo?.get(basis);
  if (known) return known;
  let f: Freshness;
  if ('asOf' in basis) f = agedFreshness(basis.asOfIso ?? new Date(basis.asOf).toISOString(), basis.asOf, basis.sourceStatus, basis.maxAgeMs, now);
  else if ('missing' in basis) f = missingFreshness(basis.missing, basis.sourceStatus, now);
  // The fallback only counts without parts: not computed (an ISO time of `now`) otherwise.
  else if (basis.parts.length === 0) f = freshnessAt(basis.fallback, now, memo);
  else f = combineParts(basis.parts.map((p) => freshnessAt(p, now, memo)));
  memo?.set(basis, f);
  return f;
}
