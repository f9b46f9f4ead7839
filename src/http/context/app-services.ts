import type { Logger } from 'pino';
import type { ApiKeys } from '../../auth/api-keys.js';
import type { Authenticator } from '../../auth/authenticator.js';
import type { GatewayConfig } from '../../config/gateway-config.js';
import type { ContractDocuments } from '../../contract/contract-documents.js';
import type { ExecutionControls } from '../../controls/execution-controls.js';
import type { OperatorAccess } from '../../controls/operator-access.js';
import type { SharedControls } from '../../controls/shared-controls.js';
import type { Clock } from '../../domain/clock.js';
import type { CursorCodec } from '../../domain/cursor.js';
import type { SharedState } from '../../domain/shared-state.js';
import type { GatewayEvents } from '../../events/gateway-events.js';
import type { ExecutionServices } from '../../execution/execution-services.js';
import type { IngestLoop } from '../../ingest/ingest-loop.js';
import type { HistoryReader } from '../../market-data/history-reader.js';
import type { MarketReader } from '../../market-data/market-reader.js';
import type { ProtocolRegistry } from '../../protocols/protocol-registry.js';
import type { MarketDataSource } from '../../sources/market-data-source.js';

/** The services built once at start-up and passed to resolvers through the context (never raw stores). */
export interface AppServices {
  config: GatewayConfig;
  logger: Logger;
  clock: Clock;
  /** Snapshots, order books and source health, with freshness computed at read time. */
  reader: MarketReader;
  /** Stored candles and settled funding. */
  history: HistoryReader;
  protocols: ProtocolRegistry;
  events: GatewayEvents;
  contract: ContractDocuments;
  sources: MarketDataSource[];
  /** The venues that run, as /status describes them: real, simulated or replay. */
  venues: readonly { id: string; kind: string; mode: string; upstream: string; network: string | null; chainId: number | null }[];
  ingest: IngestLoop;
  authenticator: Authenticator;
  keys: ApiKeys;
  controls: ExecutionControls;
  execution: ExecutionServices;
  operator: OperatorAccess;
  sharedControls: SharedControls;
  /** Where shared state lives (embedded or Redis) and whether it is reachable. */
  sharedState: SharedState;
  /** Signs and checks page cursors (GATEWAY_CURSOR_SECRET). */
  cursors: CursorCodec;
  /** What public answers depend on besides the instant (answer-version.ts); undefined where not versioned. */
  answerVersion(): string | undefined;
}
