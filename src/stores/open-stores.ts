import type { Logger } from 'pino';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../config.js';
import { createGatewayEvents, type GatewayEvents } from '../events/gateway-events.js';
import { SoleIngestion, type IngestionLease } from '../ingest/ingestion-lease.js';
import { FlexibleRateLimiter, type RateLimiter } from '../rate-limit/rate-limiter.js';
import type { CandleStore } from './candle-store.js';
import type { FundingStore } from './funding-store.js';
import type { IdentityStore } from './identity-store.js';
import { MemoryCandleStore } from './memory/memory-candle-store.js';
import { MemoryFundingStore } from './memory/memory-funding-store.js';
import { MemoryIdentityStore } from './memory/memory-identity-store.js';
import { MemorySnapshotCache } from './memory/memory-snapshot-cache.js';
import { openRedisStores } from './redis/open-redis-stores.js';
import type { SharedState } from './shared-state.js';
import type { SnapshotCache } from './snapshot-cache.js';
import type { ControlsChannel } from '../controls/shared-controls.js';
import { redisExecutionStores } from './redis/redis-execution-stores.js';
import type { AgentSessionStore, ApprovalStore, AuditStore, ExecutionStore, IdempotencyStore, LedgerStore, WalletSessionStore } from './execution-stores.js';
import {
  MemoryAgentSessionStore,
  MemoryApprovalStore,
  MemoryAuditStore,
  MemoryExecutionStore,
  MemoryIdempotencyStore,
  MemoryLedgerStore,
  MemoryWalletSessionStore,
} from './memory/memory-execution-stores.js';
import { openEmbeddedStores } from './sqlite/open-sqlite-stores.js';

/** The stores of the execution plane: the policy store (approvals, sessions) and its records. */
export interface ExecutionStores {
  idempotency: IdempotencyStore;
  approvals: ApprovalStore;
  executions: ExecutionStore;
  agentSessions: AgentSessionStore;
  walletSessions: WalletSessionStore;
  ledger: LedgerStore;
  audit: AuditStore;
}

/** In-process execution stores; expiries follow `now` (the app clock, so tests can move time). */
export function memoryExecutionStores(now: () => number = Date.now): ExecutionStores {
  return {
    idempotency: new MemoryIdempotencyStore(now),
    approvals: new MemoryApprovalStore(),
    executions: new MemoryExecutionStore(),
    agentSessions: new MemoryAgentSessionStore(now),
    walletSessions: new MemoryWalletSessionStore(now),
    ledger: new MemoryLedgerStore(),
    audit: new MemoryAuditStore(),
  };
}

/** Every store the gateway keeps state in, behind its interface. */
export interface GatewayStores {
  cache: SnapshotCache;
  candles: CandleStore;
  funding: FundingStore;
  identities: IdentityStore;
  rateLimiter: RateLimiter;
  /** Subscription events; shared across replicas in Redis mode. */
  events: GatewayEvents;
  execution: ExecutionStores;
  /** Who runs ingestion: always this process in embedded mode, one replica at a time in Redis mode. */
  lease: IngestionLease;
  /** Where shared state lives and whether it is reachable, for the status route. */
  sharedState: SharedState;
  /** Where the operator controls in force are kept: Redis, the embedded database, or nowhere (memory). */
  controlsChannel: ControlsChannel | undefined;
  /** Connects to shared state before anything reads it; a no-op in embedded mode. */
  connect(): Promise<void>;
  /** Releases connections, the embedded database and its data-directory lock. */
  close(): Promise<void>;
}

/**
 * The stores of the configured mode: with REDIS_URL every one of them lives in Redis; otherwise
 * (embedded) market data is in-process and identities, the execution plane and the operator
 * controls live in <dataDir>/gateway.db (SQLite), or in memory when dataDir is null (tests).
 * Embedded mode with a data directory throws DataDirLockedError when another gateway owns it.
 */
export function openStores(config: GatewayConfig, logger: Logger, now: () => number = Date.now): GatewayStores {
  const { redisUrl } = config;
  if (redisUrl) return openRedisStores({ ...config, redisUrl }, logger, redisExecutionStores);
  const lease = new SoleIngestion();
  const durable = config.dataDir ? openEmbeddedStores(config.dataDir, logger, now) : undefined;
  return {
    cache: new MemorySnapshotCache(),
    candles: new MemoryCandleStore(),
    funding: new MemoryFundingStore(),
    identities: durable?.identities ?? new MemoryIdentityStore(),
    rateLimiter: new FlexibleRateLimiter((p) => new RateLimiterMemory({ points: p.points, duration: p.windowSeconds, keyPrefix: p.name })),
    events: createGatewayEvents(),
    execution: durable?.execution ?? memoryExecutionStores(now),
    lease,
    controlsChannel: durable?.controls,
    sharedState: { status: () => ({ mode: 'embedded', connected: true, lastError: null, lastErrorAt: null, ingestionLeader: lease.held }) },
    connect: async () => undefined,
    close: async () => durable?.close(),
  };
}
