/** Approvals, executions and audit entries are kept 90 days; sessions and claims by their own TTL. */
export const RECORD_TTL_MS = 90 * 24 * 3_600_000;

/** A stored JSON value, or undefined for a missing key. */
export const json = <T>(s: string | null): T | undefined => (s === null ? undefined : (JSON.parse(s) as T));
