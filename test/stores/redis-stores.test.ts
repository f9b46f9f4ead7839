import { afterAll, describe, expect, it, vi } from 'vitest';
import { createGatewayEvents, type GatewayEventMap } from '../../src/events/gateway-events.js';
import { createRedisEventTarget } from '../../src/stores/redis/redis-event-target.js';
import { RedisIngestionLease } from '../../src/stores/redis/redis-ingestion-lease.js';
import { RedisCandleStore } from '../../src/stores/redis/redis-candle-store.js';
import type { RedisConnection } from '../../src/stores/redis/redis-connection.js';
import { RedisFundingStore } from '../../src/stores/redis/redis-funding-store.js';
import { RedisIdentityStore } from '../../src/stores/redis/redis-identity-store.js';
import { RedisSnapshotCache } from '../../src/stores/redis/redis-snapshot-cache.js';
import { PrivateRedis, RedisTestConnections, redisForSuites, silentLogger, uniquePrefix } from '../support/redis.js';
import { candleStoreContract } from './candle-store.contract.js';
import { fundingStoreContract } from './funding-store.contract.js';
import { identityStoreContract } from './identity-store.contract.js';
import { rateLimiterContract } from './rate-limiter.contract.js';
import { snapshot, snapshotCacheContract } from './snapshot-cache.contract.js';
import { executionStoresContract } from './execution-stores.contract.js';
import { redisExecutionStores } from '../../src/stores/redis/redis-execution-stores.js';
import { redisRateLimiter } from '../../src/stores/redis/open-redis-stores.js';
import { RedisSpendingLedger } from '../../src/stores/redis/redis-spending-ledger.js';
import { spendingLedgerContract } from './spending-ledger.contract.js';

const available = await redisForSuites();
const connections = new RedisTestConnections();
afterAll(() => connections.cleanup());

/** Each store gets a prefix of its own, so every contract test starts from an empty Redis. */
const fresh = () => connections.open(uniquePrefix('stores'));

async function listeningCache(redis: RedisConnection) {
  const cache = new RedisSnapshotCache(redis);
  await cache.listen();
  return cache;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!available)('Redis stores', () => {
  spendingLedgerContract('redis', async () => new RedisSpendingLedger(await fresh()));
  candleStoreContract('redis', async () => new RedisCandleStore(await fresh()));
  snapshotCacheContract('redis', async () => listeningCache(await fresh()));
  fundingStoreContract('redis', async (retention) => new RedisFundingStore(await fresh(), retention));
  identityStoreContract('redis', async () => new RedisIdentityStore(await fresh()));
  rateLimiterContract('redis', async () => redisRateLimiter(await fresh()));
  executionStoresContract('redis', async () => redisExecutionStores(await fresh()));

  it("counts a request with the limiter's script by SHA, and no timer", async () => {
    const redis = await fresh();
    const limiter = redisRateLimiter(redis);
    const policy = { name: 'sha', points: 10, windowSeconds: 60 };
    await limiter.consume(policy, 'ip'); // the first loads the script
    const scripts = vi.spyOn(redis, 'run'); // EVALSHA (EVAL of the text only on NOSCRIPT)
    const timers = vi.spyOn(AbortSignal, 'timeout');
    try {
      expect(await limiter.consume(policy, 'ip')).toMatchObject({ allowed: true, remaining: 8 });
      expect(scripts).toHaveBeenCalledTimes(1);
      expect(timers).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  describe('shared between replicas (two connections, one prefix)', () => {
    const pair = async (label: string) => {
      const prefix = uniquePrefix(label);
      return [await connections.open(prefix), await connections.open(prefix)] as const;
    };

    it('the local snapshot copy answers without Redis until another replica writes', async () => {
      const [a, b] = await pair('local-cache');
      const writer = await listeningCache(a);
      const reader = await listeningCache(b);
      await writer.putMarket(snapshot('BTC-PERP', '100'));
      const hmGet = vi.spyOn(b.client, 'hmGet');
      expect(await reader.getMarket('BTC-PERP')).toMatchObject({ price: '100' });
      expect(await reader.getMarkets(['BTC-PERP'])).toMatchObject([{ price: '100' }]);
      expect(hmGet).toHaveBeenCalledTimes(1);

      await writer.putMarket(snapshot('BTC-PERP', '101', 2_000));
      await until(async () => (await reader.getMarket('BTC-PERP'))?.price === '101');
      expect(hmGet).toHaveBeenCalledTimes(2);
      hmGet.mockRestore();
    });

    it("each replica's version moves with its own writes at once and with another replica's as their invalidations arrive", async () => {
      const [a, b] = await pair('version');
      // Not following other replicas' writes: nothing may be reused.
      expect(new RedisSnapshotCache(b).version()).toBeUndefined();
      const writer = await listeningCache(a);
      const reader = await listeningCache(b);
      const health = { sourceId: 's', status: 'healthy' as const, lastAttemptAt: 1, lastSuccessAt: 1, lastError: null, consecutiveFailures: 0 };
      const writes: [string, () => Promise<void>][] = [
        ['market', () => writer.putMarket(snapshot('BTC-PERP', '100'))],
        ['book', () => writer.putOrderBook({ marketId: 'BTC-PERP', bids: [], asks: [], sourceTime: 1, receivedAt: 1 })],
        ['health', () => writer.putSourceHealth(health)],
        ['listing', () => writer.putListing('s', [])],
      ];
      for (const [kind, write] of writes) {
        const [w, r] = [writer.version(), reader.version()];
        expect(w, kind).toEqual(expect.any(Number));
        expect(r, kind).toEqual(expect.any(Number));
        await write();
        expect(writer.version(), kind).not.toBe(w); // its own write: when the write returns
        await until(() => reader.version() !== r); // another's: when the invalidation arrives
      }
      // Read under the version taken after the invalidation: the new value.
      expect(await reader.getMarket('BTC-PERP')).toMatchObject({ price: '100' });
      const v = reader.version();
      expect(await reader.getMarket('BTC-PERP')).toMatchObject({ price: '100' });
      expect(reader.version()).toBe(v); // reading changes nothing
    });

    it("the version moves every half of the local copies' age bound, without any write", async () => {
      const [a] = await pair('version-age');
      const cache = new RedisSnapshotCache(a, { maxLocalAgeMs: 40 });
      await cache.listen();
      const v = cache.version();
      await new Promise((r) => setTimeout(r, 25));
      expect(cache.version()).not.toBe(v);
    });

    it('health written by one replica is seen by another', async () => {
      const [a, b] = await pair('health');
      const writer = await listeningCache(a);
      const reader = await listeningCache(b);
      const health = { sourceId: 's', status: 'healthy' as const, lastAttemptAt: 1, lastSuccessAt: 1, lastError: null, consecutiveFailures: 0 };
      await writer.putSourceHealth(health);
      expect(await reader.listSourceHealth()).toEqual([health]);
      await writer.putSourceHealth({ ...health, status: 'down', consecutiveFailures: 1 });
      await until(async () => (await reader.getSourceHealth('s'))?.status === 'down');
    });

    it('a listing written by one replica is announced to another, which reads it', async () => {
      const [a, b] = await pair('listing');
      const writer = await listeningCache(a);
      const reader = await listeningCache(b);
      const announced: string[] = [];
      reader.onListingChanged((sourceId) => announced.push(sourceId));
      const mine: string[] = [];
      writer.onListingChanged((sourceId) => mine.push(sourceId));
      const listing = [
        {
          id: 'X-PERP',
          asset: 'X',
          quote: 'USDC',
          kind: 'perpetual' as const,
          protocolId: 'v',
          sourceId: 'v',
          priceDecimals: 1,
          sizeDecimals: 1,
          basePrice: 0,
          volatility: 0,
          volumePerMinute: 0,
          hasOrderBook: true,
        },
      ];
      await writer.putListing('v', listing);
      await until(() => announced.length === 1);
      expect(announced).toEqual(['v']);
      expect(await reader.getListing('v')).toEqual(listing);
      expect(mine).toEqual([]); // its own write is not announced back to it
    });

    it('events published on one replica reach subscribers on another', async () => {
      const [a, b] = await pair('events');
      const publisher = createGatewayEvents(createRedisEventTarget<GatewayEventMap>(a, silentLogger));
      const subscriber = createGatewayEvents(createRedisEventTarget<GatewayEventMap>(b, silentLogger));
      const iterator = subscriber.subscribe('freshness:changed')[Symbol.asyncIterator]();
      const next = iterator.next();
      const payload = {
        marketId: 'BTC-PERP',
        asset: 'BTC',
        freshness: { asOf: '2026-01-01T00:00:00.000Z', freshnessMs: 5, stale: false, staleReason: null, sourceStatus: 'healthy' as const },
      };
      // The subscription is sent asynchronously: publish until it has arrived.
      const timer = setInterval(() => publisher.publish('freshness:changed', payload), 50);
      try {
        expect((await next).value).toEqual(payload);
      } finally {
        clearInterval(timer);
        await iterator.return?.();
      }
    });

    it("hands one replica's subscribers of an event one payload object, so what is made of it is made once per replica", async () => {
      const [a, b] = await pair('events-shared');
      const publisher = createGatewayEvents(createRedisEventTarget<GatewayEventMap>(a, silentLogger));
      const subscriber = createGatewayEvents(createRedisEventTarget<GatewayEventMap>(b, silentLogger));
      const iterators = [1, 2, 3].map(() => subscriber.subscribe('freshness:changed')[Symbol.asyncIterator]());
      const nexts = iterators.map((i) => i.next());
      const payload = {
        marketId: 'BTC-PERP',
        asset: 'BTC',
        freshness: { asOf: '2026-01-01T00:00:00.000Z', freshnessMs: 5, stale: false, staleReason: null, sourceStatus: 'healthy' as const },
      };
      const timer = setInterval(() => publisher.publish('freshness:changed', payload), 50);
      try {
        const [first, ...others] = (await Promise.all(nexts)).map((r) => r.value);
        expect(first).toEqual(payload);
        // The shared-results plugin executes and serialises an event once per payload object.
        for (const other of others) expect(other).toBe(first);
      } finally {
        clearInterval(timer);
        await Promise.all(iterators.map((i) => i.return?.()));
      }
    });

    it('rate limits count across replicas', async () => {
      const [a, b] = await pair('rate');
      const policy = { name: 'shared', points: 4, windowSeconds: 60 };
      const [onA, onB] = [redisRateLimiter(a), redisRateLimiter(b)];
      for (const limiter of [onA, onB, onA, onB]) expect((await limiter.consume(policy, 'ip')).allowed).toBe(true);
      expect((await onA.consume(policy, 'ip')).allowed).toBe(false);
      expect((await onB.consume(policy, 'ip')).allowed).toBe(false);
    });

    it('of replicas racing for the ingestion lease exactly one wins; a stop hands it over at once', async () => {
      const prefix = uniquePrefix('lease');
      const replicas = await Promise.all([1, 2, 3, 4].map(() => connections.open(prefix)));
      const acquired: number[] = [];
      const leases = replicas.map((r) => new RedisIngestionLease(r, { ttlMs: 1_000, logger: silentLogger }));
      await Promise.all(leases.map((lease, i) => lease.start({ onAcquired: async () => void acquired.push(i), onLost: () => undefined })));
      expect(acquired).toHaveLength(1);
      expect(leases.filter((l) => l.held)).toHaveLength(1);
      const first = acquired[0]!;
      await leases[first]!.stop();
      await until(() => acquired.length === 2, 1_000);
      expect(acquired[1]).not.toBe(first);
      expect(leases.filter((l) => l.held)).toHaveLength(1);
      await Promise.all(leases.map((l) => l.stop()));
    });

    it('a holder that cannot renew gives the lease up, and another replica takes it after the ttl', async () => {
      const prefix = uniquePrefix('lease-expiry');
      const [a, b] = [await connections.open(prefix), await connections.open(prefix)];
      const events: string[] = [];
      const leaseA = new RedisIngestionLease(a, { ttlMs: 600, logger: silentLogger });
      const leaseB = new RedisIngestionLease(b, { ttlMs: 600, logger: silentLogger });
      await leaseA.start({ onAcquired: async () => void events.push('A acquired'), onLost: () => void events.push('A lost') });
      await leaseB.start({ onAcquired: async () => void events.push('B acquired'), onLost: () => void events.push('B lost') });
      a.client.destroy(); // A's Redis connection dies: its renewals fail
      await until(() => events.includes('B acquired'), 3_000);
      expect(events).toEqual(['A acquired', 'A lost', 'B acquired']);
      await Promise.all([leaseA.stop(), leaseB.stop()]);
    });
  });

  describe('when Redis becomes unreachable (a private redis-server, killed and restarted)', () => {
    it('serves the last local copies marked stale, a clean 503 without one, then recovers', async () => {
      const server = await PrivateRedis.start();
      const local = new RedisTestConnections(server.url);
      try {
        const redis = await local.open(uniquePrefix('outage'));
        const cache = await listeningCache(redis);
        const health = { sourceId: 's', status: 'healthy' as const, lastAttemptAt: 1, lastSuccessAt: 1, lastError: null, consecutiveFailures: 0 };
        await cache.putMarket(snapshot('A', '1'));
        await cache.putSourceHealth(health);
        expect(await cache.listSourceHealth()).toEqual([health]); // read once, as ingest and every public read do
        const candles = new RedisCandleStore(redis);
        await candles.record('A', { time: 0, price: '1', volume: '1' });

        const before = cache.version();
        expect(before).toEqual(expect.any(Number));

        await server.kill();
        await until(() => !redis.connected);
        expect(redis.state()).toMatchObject({ connected: false, lastError: expect.any(String) });
        // Invalidations may be missed now: no version, nothing rendered is reused.
        expect(cache.version()).toBeUndefined();
        expect(await cache.getMarket('A')).toMatchObject({ price: '1' });
        expect(await cache.getSourceHealth('s')).toMatchObject({ status: 'down', lastError: expect.stringMatching(/unreachable/) });
        await expect(cache.getMarket('never-read')).rejects.toMatchObject({ status: 503, code: 'shared_state_unavailable' });
        await expect(candles.range('A', 60_000, 0, 60_000)).rejects.toMatchObject({ status: 503 });
        await expect(cache.putMarket(snapshot('A', '2'))).rejects.toMatchObject({ status: 503 });

        await server.start();
        await until(() => redis.connected, 8_000);
        // Subscribed again: versioned again, past everything rendered before the outage.
        expect(cache.version()).toEqual(expect.any(Number));
        expect(cache.version()).not.toBe(before);
        // Redis came back empty (no persistence here): Redis is authoritative again.
        expect(await cache.getMarket('A')).toBeUndefined();
        await cache.putMarket(snapshot('A', '3'));
        expect(await cache.getMarket('A')).toMatchObject({ price: '3' });
      } finally {
        await local.cleanup().catch(() => undefined);
        await server.kill();
      }
    });
  });
});
