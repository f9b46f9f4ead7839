import { RateLimiterMemory } from 'rate-limiter-flexible';
import { FlexibleRateLimiter } from '../../src/rate-limit/rate-limiter.js';
import { MemoryCandleStore } from '../../src/stores/memory/memory-candle-store.js';
import { MemoryFundingStore } from '../../src/stores/memory/memory-funding-store.js';
import { MemoryIdentityStore } from '../../src/stores/memory/memory-identity-store.js';
import { MemorySnapshotCache } from '../../src/stores/memory/memory-snapshot-cache.js';
import { memoryExecutionStores } from '../../src/stores/memory/memory-execution-stores.js';
import { executionStoresContract } from './execution-stores.contract.js';
import { expiringStoresContract } from './expiring-stores.contract.js';
import { candleStoreContract } from './candle-store.contract.js';
import { fundingStoreContract } from './funding-store.contract.js';
import { identityStoreContract } from './identity-store.contract.js';
import { rateLimiterContract } from './rate-limiter.contract.js';
import { snapshotCacheContract } from './snapshot-cache.contract.js';
import { MemorySpendingLedger } from '../../src/stores/memory/memory-spending-ledger.js';
import { spendingLedgerContract } from './spending-ledger.contract.js';

spendingLedgerContract('memory', async () => new MemorySpendingLedger());
candleStoreContract('memory', async () => new MemoryCandleStore());
snapshotCacheContract('memory', async () => new MemorySnapshotCache());
fundingStoreContract('memory', async (retention) => new MemoryFundingStore(retention));
identityStoreContract('memory', async () => new MemoryIdentityStore());
rateLimiterContract(
  'memory',
  async () => new FlexibleRateLimiter((p) => new RateLimiterMemory({ points: p.points, duration: p.windowSeconds, keyPrefix: p.name })),
);

executionStoresContract('memory', async () => memoryExecutionStores());
expiringStoresContract('memory', async (now) => memoryExecutionStores(now));
