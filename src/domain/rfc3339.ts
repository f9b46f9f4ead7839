const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;

/** An RFC 3339 date-time with an explicit offset, and a real date: no `2026-02-30` rolled over into March, no hour 24. */
export function isRfc3339(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const offsetOk = m[9] === undefined || (Number(m[9]) <= 23 && Number(m[10]) <= 59);
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetOk && !Number.isNaN(Date.parse(value))
  );
}

const MINUTE_MS = 60_000;
const ALIGNED_ISO_LIMIT = 100_000;
const alignedIso = new Map<number, string>();
/** The last instant formatted that was not on a minute: requests in the same millisecond share it. */
let lastMs = Number.NaN;
let lastIso = '';

/**
 * `new Date(ms).toISOString()`, remembered for whole minutes: candle buckets and funding times
 * repeat across requests (a default history answer is 366 of them, and toISOString was a third of
 * its CPU), while per-request instants are not worth keeping beyond the last one (under load
 * several requests share a millisecond). Bounded: cleared when full.
 */
export function isoOfEpochMs(ms: number): string {
  if (ms % MINUTE_MS !== 0) {
    if (ms !== lastMs) {
      lastIso = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastIso;
  }
  let iso = alignedIso.get(ms);
  if (iso === undefined) {
    iso = new Date(ms).toISOString();
    if (alignedIso.size >= ALIGNED_ISO_LIMIT) alignedIso.clear();
    alignedIso.set(ms, iso);
  }
  return iso;
}
