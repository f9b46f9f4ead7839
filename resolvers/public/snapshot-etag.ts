import { createHash } from 'node:crypto';

/**
 * Weak validator of a mirror: changes when any snapshot, source status or stale flag changes,
 * not with `generatedAt` or `freshnessMs`, so a client holding the same snapshot gets 304.
 */
export function snapshotEtag(parts: readonly (string | number | boolean | null)[]): string {
  return `W/"${createHash('sha1').update(parts.join('|')).digest('base64url').slice(0, 22)}"`;
}
