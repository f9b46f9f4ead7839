export const SOURCE_STATUSES = ['healthy', 'degraded', 'down', 'unknown'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** Health of one market-data source as ingest last saw it. */
export interface SourceHealth {
  sourceId: string;
  status: SourceStatus;
  lastAttemptAt: number | null;
  lastSuccessAt: number | null;
  lastError: string | null;
  consecutiveFailures: number;
}

export function unknownHealth(sourceId: string): SourceHealth {
  return { sourceId, status: 'unknown', lastAttemptAt: null, lastSuccessAt: null, lastError: null, consecutiveFailures: 0 };
}

const severity: Record<SourceStatus, number> = { healthy: 0, degraded: 1, unknown: 2, down: 3 };

/** The worst of several statuses, for responses that aggregate sources. */
export function worstStatus(statuses: Iterable<SourceStatus>): SourceStatus {
  let worst: SourceStatus | undefined;
  for (const s of statuses) if (worst === undefined || severity[s] > severity[worst]) worst = s;
  return worst ?? 'unknown';
}
