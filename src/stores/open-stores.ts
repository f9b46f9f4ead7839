import type { Logger } from 'pino';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../config/gateway-config.js';
import { EACH_WRITE_DURABLE } from '../execution/write-durability.js';
import { createGatewayEvents, type GatewayEvents } from '../events/gateway-events.js';
import { FlexibleRateLimiter } from '../rate-limit/rate-limiter.js';
import type { GatewayStores } from './gateway-stores.js';
import { MemoryCandleStore } from './memory/memory-candle-store.js';
import { memoryExecutionStores } from './memory/memory-execution-stores.js';
import { MemoryFundingStore } from './memory/memory-funding-store.js';
import { MemoryIdentityStore } from './memory/memory-identity-store.js';
import { MemorySnapshotCache } from './memory/memory-snapshot-cache.js';
import { MemorySpendingLedger } from './memory/memory-spending-ledger.js';
import { SoleIngestion } from './memory/sole-ingestion.js';
import { openRedisStores } from './redis/open-redis-stores.js';
import { openEmbeddedStores } from './sqlite/open-sqlite-stores.js';
import { DurableCandleStore, DurableFundingStore, DurableSpendingLedger } from './sqlite/durable-market-history.js';
import { SqliteMarketHistory } from './sqlite/sqlite-market-history.js';

/**
 * The stores of the configured mode: with REDIS_URL every one of them lives in Redis; otherwise
 * (embedded) market data in process and everything the execution plane and identity keep in
 * `<GATEWAY_DATA_DIR>/gateway.db`; with no data directory (tests), all in memory.
 */
export function openStores(
  config: GatewayConfig,
  logger: Logger,
  now: () => number = Date.now,
  /** Whether a market's history is kept on disk in embedded mode (a real venue's; a simulator makes its own again). */
  keptHistory: (marketId: string) => boolean = () => false,
): GatewayStores {
  const { redisUrl } = config;
  if (redisUrl) return openRedisStores({ ...config, redisUrl }, logger);
  const lease = new SoleIngestion();
  const durable = config.dataDir ? openEmbeddedStores(config.dataDir, logger, now) : undefined;
  const history = config.dataDir ? new SqliteMarketHistory(config.dataDir, (err) => logger.warn({ err }, 'market history could not be written')) : undefined;
  return {
    cache: new MemorySnapshotCache(),
    candles: history ? new DurableCandleStore(history) : new MemoryCandleStore(),
    funding: history ? new DurableFundingStore(history, keptHistory) : new MemoryFundingStore(),
    spending: history ? new DurableSpendingLedger(history) : new MemorySpendingLedger(),
    identities: durable?.identities ?? new MemoryIdentityStore(),
    rateLimiter: new FlexibleRateLimiter((p) => new RateLimiterMemory({ points: p.points, duration: p.windowSeconds, keyPrefix: p.name })),
    events: durable ? publishedAfterCommit(createGatewayEvents(), durable.commits) : createGatewayEvents(),
    execution: durable?.execution ?? memoryExecutionStores(now),
    durability: durable?.commits ?? EACH_WRITE_DURABLE,
    lease,
    controlsChannel: durable?.controls,
    sharedState: { status: () => ({ mode: 'embedded', connected: true, lastError: null, lastErrorAt: null, ingestionLeader: lease.held }) },
    connect: async () => undefined,
    ping: async () => void durable?.db.prepare('SELECT 1').get(),
    close: async () => {
      history?.close();
      durable?.close();
    },
  };
}

/** Approval and execution events tell subscribers what was written: only once it is committed. */
function publishedAfterCommit(events: GatewayEvents, commits: { afterCommit(publish: () => void): void }): GatewayEvents {
  const publish: GatewayEvents['publish'] = (...args) => {
    if (args[0] === 'approval:updated' || args[0] === 'execution:updated') commits.afterCommit(() => events.publish(...args));
    else events.publish(...args);
  };
  return { ...events, publish };
}
