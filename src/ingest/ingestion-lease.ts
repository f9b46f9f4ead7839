export interface LeadershipHandlers {
  /** This replica now runs ingestion (backfill if needed, first poll, then the loop). */
  onAcquired(): Promise<void>;
  /** It no longer may: stop ingesting at once. */
  onLost(): void;
}

/** Who runs ingestion. Exactly one replica holds it at a time. */
export interface IngestionLease {
  /** Starts contending; resolves after the first attempt (and its `onAcquired`, when won). */
  start(handlers: LeadershipHandlers): Promise<void>;
  /** Stops contending and hands the lease back, so a follower takes over at once. */
  stop(): Promise<void>;
  /** True while this replica holds the lease. */
  readonly held: boolean;
}
