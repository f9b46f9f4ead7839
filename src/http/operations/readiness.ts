import type { SharedState } from '../../domain/shared-state.js';
import type { SourceHealth } from '../../domain/source-health.js';

/** Where the process is in its life: readiness is false until started and once draining. */
export class LifecycleState {
  started = false;
  draining = false;
}

export interface ReadinessDeps {
  state: LifecycleState;
  sharedState: SharedState;
  /** Rejects when the durable store (SQLite file, Redis) cannot answer. */
  ping(): Promise<void>;
  healthBySource(): Promise<Map<string, SourceHealth>>;
  sourceIds: readonly string[];
  now(): number;
}

/** Ingestion counts as running while every source was polled within this long (the public max age). */
const INGEST_STALE_MS = 60_000;
const PROBE_TIMEOUT_MS = 1_000;

/** Why this process should not receive traffic now; empty when it is ready. */
export async function readinessProblems(deps: ReadinessDeps): Promise<string[]> {
  if (!deps.state.started) return ['starting'];
  const problems: string[] = [];
  if (deps.state.draining) problems.push('draining');
  const shared = deps.sharedState.status();
  if (!shared.connected) problems.push(`shared_state_disconnected${shared.lastError ? `: ${shared.lastError}` : ''}`);
  try {
    await withTimeout(deps.ping(), PROBE_TIMEOUT_MS);
    const health = await withTimeout(deps.healthBySource(), PROBE_TIMEOUT_MS);
    const now = deps.now();
    const stale = deps.sourceIds.filter((id) => {
      const at = health.get(id)?.lastAttemptAt;
      return at === null || at === undefined || now - at > INGEST_STALE_MS;
    });
    if (stale.length > 0) problems.push(`ingestion_stale: ${stale.join(', ')}`);
  } catch (err) {
    problems.push(`store_unavailable: ${err instanceof Error ? err.message : String(err)}`);
  }
  return problems;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
