import { createHash, randomBytes } from 'node:crypto';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';

/**
 * Weak validator of a mirror: changes when any snapshot, source status or stale flag changes,
 * not with `generatedAt` or `freshnessMs`, so a client holding the same snapshot gets 304.
 */
export function snapshotEtag(parts: readonly (string | number | boolean | null)[]): string {
  return `W/"${createHash('sha1').update(parts.join('|')).digest('base64url').slice(0, 22)}"`;
}

/** Tells this process's versions from another's (a restarted gateway counts from 0 again). */
const PROCESS_TAG = randomBytes(6).toString('base64url');

/** Weak validator from the snapshot cache's version, not from the bytes: `stale` is how many stale values the answer carries. */
export function versionEtag(version: string, stale: number): string {
  return `W/"${PROCESS_TAG}.${version}.${stale}"`;
}

/**
 * Whether a mirror's validator may come from the answer version: only where one process serves
 * it. Replicas on Redis each count their own versions, and a client behind their load balancer
 * must get the same validator from every one of them, so theirs is a digest of the answer's content.
 */
export function versionEtags(ctx: GatewayContext): boolean {
  return ctx.services.config.mode !== 'redis';
}
