import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { GatewayConfig } from '../config.js';
import { createGatewayEvents, type GatewayEvents } from '../events/gateway-events.js';
import { FlexibleRateLimiter, type RateLimiter } from '../rate-limit/rate-limiter.js';
import type { CandleStore } from './candle-store.js';
import type { FundingStore } from './funding-store.js';
import type { IdentityStore } from './identity-store.js';
import { MemoryCandleStore } from './memory/memory-candle-store.js';
import { MemoryFundingStore } from './memory/memory-funding-store.js';
import { MemorySnapshotCache } from './memory/memory-snapshot-cache.js';
import { openIdentityStore } from './open-identity-store.js';
import type { SnapshotCache } from './snapshot-cache.js';

/** Every store the gateway keeps state in, behind its interface. */
export interface GatewayStores {
  cache: SnapshotCache;
  candles: CandleStore;
  funding: FundingStore;
  identities: IdentityStore;
  rateLimiter: RateLimiter;
  /** Subscription events; shared across replicas in Redis mode. */
  events: GatewayEvents;
  /** Releases connections; a no-op in embedded mode. */
  close(): Promise<void>;
}

/** The stores of the embedded mode: in-process, with identities in the data directory. */
export function openStores(config: GatewayConfig): GatewayStores {
  return {
    cache: new MemorySnapshotCache(),
    candles: new MemoryCandleStore(),
    funding: new MemoryFundingStore(),
    identities: openIdentityStore(config),
    rateLimiter: new FlexibleRateLimiter((p) => new RateLimiterMemory({ points: p.points, duration: p.windowSeconds, keyPrefix: p.name })),
    events: createGatewayEvents(),
    close: async () => undefined,
  };
}
