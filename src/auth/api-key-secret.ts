import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of keys the gateway issues, so a leaked key is recognisable in logs and scanners. */
export const KEY_PREFIX = 'tgw_';
/** Longest Authorization header considered; longer ones are refused unread. */
export const MAX_AUTHORIZATION_LENGTH = 512;

export function newApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export type BearerProblem = 'missing' | 'empty' | 'scheme' | 'malformed' | 'oversized';

// RFC 6750 b64token, bounded: keys are 16 to 256 characters.
const TOKEN = /^[A-Za-z0-9\-._~+/]{16,256}=*$/;

/** Reads `Authorization: Bearer <key>`; says precisely what is wrong when it cannot. */
export function parseBearer(header: string | null | undefined): { token: string } | { problem: BearerProblem } {
  if (header === null || header === undefined) return { problem: 'missing' };
  if (header.length > MAX_AUTHORIZATION_LENGTH) return { problem: 'oversized' };
  const trimmed = header.trim();
  if (trimmed === '') return { problem: 'empty' };
  const space = trimmed.indexOf(' ');
  const scheme = space === -1 ? trimmed : trimmed.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return { problem: 'scheme' };
  const token = space === -1 ? '' : trimmed.slice(space + 1).trim();
  if (token === '') return { problem: 'empty' };
  if (!TOKEN.test(token)) return { problem: 'malformed' };
  return { token };
}
