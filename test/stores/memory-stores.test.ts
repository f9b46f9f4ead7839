import { MemoryCandleStore } from '../../src/stores/memory/memory-candle-store.js';
import { MemorySnapshotCache } from '../../src/stores/memory/memory-snapshot-cache.js';
import { candleStoreContract } from './candle-store.contract.js';
import { snapshotCacheContract } from './snapshot-cache.contract.js';

candleStoreContract('memory', async () => new MemoryCandleStore());
snapshotCacheContract('memory', async () => new MemorySnapshotCache());
