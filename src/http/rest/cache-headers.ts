import type { RouteSpec } from '../../contract/route-spec.js';
import type { Freshness } from '../../domain/freshness.js';

/**
 * Cache-Control consistent with freshness: cacheable only while the data is fresh, and only for
 * what remains of its max age. Stale or not-found answers must be revalidated.
 */
export function cacheControlFor(route: RouteSpec, freshness: Freshness | undefined): string {
  // Account-bound answers are never stored by shared caches.
  if (route.visibility !== 'public') return 'private, no-store';
  if (route.maxAgeMs === null) return 'public, max-age=300';
  if (!freshness || freshness.stale) return 'no-cache';
  const seconds = Math.floor((route.maxAgeMs - freshness.freshnessMs) / 1000);
  return seconds > 0 ? `public, max-age=${seconds}` : 'no-cache';
}

/** Weak comparison of If-None-Match against an ETag (RFC 9110, 13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => bare(t) === bare(etag));
}
