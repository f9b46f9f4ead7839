import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticator.js';
import type { ExecutionControls } from '../controls/execution-controls.js';
import type { OperatorAccess } from '../controls/operator-access.js';
import type { SharedControls } from '../controls/shared-controls.js';
import type { ExecutionServices } from '../execution/execution-services.js';
import type { ExecutionStores } from '../stores/open-stores.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { IdentityStore } from '../auth/identity-store.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { ContractDocuments } from '../contract/contract-documents.js';
import type { Clock } from '../domain/clock.js';
import type { GatewayEvents } from '../events/gateway-events.js';
import type { IngestLoop } from '../ingest/ingest-loop.js';
import type { MarketReader } from '../market-data/market-reader.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { CandleStore } from '../market-data/candle-store.js';
import type { FundingStore } from '../market-data/funding-store.js';
import type { SharedState } from '../domain/shared-state.js';
import type { SnapshotCache } from '../market-data/snapshot-cache.js';
import type { SimulatedSource } from '../sources/simulated-source.js';

/** Everything built once at start-up and passed to resolvers through the context. */
export interface AppServices {
  config: GatewayConfig;
  logger: Logger;
  clock: Clock;
  cache: SnapshotCache;
  candles: CandleStore;
  funding: FundingStore;
  reader: MarketReader;
  protocols: ProtocolRegistry;
  events: GatewayEvents;
  contract: ContractDocuments;
  sources: SimulatedSource[];
  ingest: IngestLoop;
  identities: IdentityStore;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  controls: ExecutionControls;
  execution: ExecutionServices;
  executionStores: ExecutionStores;
  operator: OperatorAccess;
  sharedControls: SharedControls;
  /** Where shared state lives (embedded or Redis) and whether it is reachable. */
  sharedState: SharedState;
}
