import type { IdentityStore } from '../auth/identity-store.js';
import type { ControlsChannel } from '../controls/shared-controls.js';
import type { SharedState } from '../domain/shared-state.js';
import type { GatewayEvents } from '../events/gateway-events.js';
import type { ExecutionStores } from '../execution/execution-stores.js';
import type { WriteDurability } from '../execution/write-durability.js';
import type { IngestionLease } from '../ingest/ingestion-lease.js';
import type { CandleStore } from '../market-data/candle-store.js';
import type { FundingStore } from '../market-data/funding-store.js';
import type { SnapshotCache } from '../market-data/snapshot-cache.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';

/** Every store the gateway keeps state in, behind its interface: what `openStores` gives the composition root. */
import type { SpendingLedger } from '../sources/spending-ledger.js';

export interface GatewayStores {
  cache: SnapshotCache;
  candles: CandleStore;
  funding: FundingStore;
  identities: IdentityStore;
  rateLimiter: RateLimiter;
  /** Subscription events; shared across replicas in Redis mode. */
  events: GatewayEvents;
  execution: ExecutionStores;
  /** When the execution and identity stores' writes are durable (SQLite commits them in groups). */
  durability: WriteDurability;
  /** What the fleet sent each real venue in the last minute (the ingestion leader's request budget starts from it). */
  spending: SpendingLedger;
  /** Who runs ingestion: always this process in embedded mode, one replica at a time in Redis mode. */
  lease: IngestionLease;
  /** Where shared state lives and whether it is reachable, for the status route. */
  sharedState: SharedState;
  /** Where the fleet's operator controls live; none in embedded mode (one process). */
  controlsChannel: ControlsChannel | undefined;
  /** Connects to shared state before anything reads it; a no-op in embedded mode. */
  connect(): Promise<void>;
  /** Rejects when the durable store cannot answer (SQLite file, Redis), for readiness. */
  ping(): Promise<void>;
  /** Releases connections; a no-op in embedded mode. */
  close(): Promise<void>;
}
