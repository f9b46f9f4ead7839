import type { Logger } from 'pino';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../config/gateway-config.js';
import { createGatewayEvents } from '../events/gateway-events.js';
import { FlexibleRateLimiter } from '../rate-limit/rate-limiter.js';
import type { GatewayStores } from './gateway-stores.js';
import { MemoryCandleStore } from './memory/memory-candle-store.js';
import { memoryExecutionStores } from './memory/memory-execution-stores.js';
import { MemoryFundingStore } from './memory/memory-funding-store.js';
import { MemorySnapshotCache } from './memory/memory-snapshot-cache.js';
import { SoleIngestion } from './memory/sole-ingestion.js';
import { openIdentityStore } from './open-identity-store.js';
import { openRedisStores } from './redis/open-redis-stores.js';

/**
 * The stores of the configured mode: with REDIS_URL every one of them lives in Redis; otherwise
 * (embedded) in-process, with identities in the data directory.
 */
export function openStores(config: GatewayConfig, logger: Logger, now: () => number = Date.now): GatewayStores {
  const { redisUrl } = config;
  if (redisUrl) return openRedisStores({ ...config, redisUrl }, logger);
  const lease = new SoleIngestion();
  return {
    cache: new MemorySnapshotCache(),
    candles: new MemoryCandleStore(),
    funding: new MemoryFundingStore(),
    identities: openIdentityStore(config),
    rateLimiter: new FlexibleRateLimiter((p) => new RateLimiterMemory({ points: p.points, duration: p.windowSeconds, keyPrefix: p.name })),
    events: createGatewayEvents(),
    execution: memoryExecutionStores(now),
    lease,
    controlsChannel: undefined,
    sharedState: { status: () => ({ mode: 'embedded', connected: true, lastError: null, lastErrorAt: null, ingestionLeader: lease.held }) },
    connect: async () => undefined,
    close: async () => undefined,
  };
}
