/** What `/api/v1/public/status` shows about where this replica keeps shared state. */
export interface SharedStateStatus {
  mode: 'embedded' | 'redis';
  /** False while Redis is unreachable; always true in embedded mode. */
  connected: boolean;
  lastError: string | null;
  /** Epoch ms of `lastError`. */
  lastErrorAt: number | null;
  /** True while this replica runs ingestion (holds the lease in Redis mode). */
  ingestionLeader: boolean;
  /** This replica's id (Redis mode), and the replica that leads ingestion as this one last saw it. */
  replica?: string;
  leadingReplica?: string | null;
}

export interface SharedState {
  status(): SharedStateStatus;
}
