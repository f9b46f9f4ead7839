import type { IngestionLease, LeadershipHandlers } from '../../ingest/ingestion-lease.js';

/** The embedded mode: one process, always the leader once started. */
export class SoleIngestion implements IngestionLease {
  held = false;
  private handlers: LeadershipHandlers | undefined;

  async start(handlers: LeadershipHandlers): Promise<void> {
    this.handlers = handlers;
    this.held = true;
    await handlers.onAcquired();
  }

  async stop(): Promise<void> {
    if (this.held) this.handlers?.onLost();
    this.held = false;
  }
}
