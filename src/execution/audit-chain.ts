import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { AuditEntry } from './execution-types.js';

export const GENESIS_HASH = '0'.repeat(64);

/** Hash of an entry: SHA-256 over the RFC 8785 canonical JSON of everything but `hash`. */
export function auditHash(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256')
    .update(canonicalize(entry) ?? '')
    .digest('hex');
}

/** Verifies a chain read oldest first: each entry hashes correctly and links to the previous. */
export function verifyAuditChain(entries: readonly AuditEntry[]): { valid: boolean; brokenAt: number | null } {
  for (let i = 0; i < entries.length; i++) {
    const { hash, ...rest } = entries[i]!;
    if (auditHash(rest) !== hash) return { valid: false, brokenAt: entries[i]!.seq };
    if (i > 0 && rest.prevHash !== entries[i - 1]!.hash) return { valid: false, brokenAt: entries[i]!.seq };
  }
  return { valid: true, brokenAt: null };
}
