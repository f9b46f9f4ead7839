import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { PrivateRedis, redisServerForSuites, uniquePrefix } from './support/redis.js';
import { eventually, Replica } from './support/replicas.js';

/**
 * A gateway process whose Redis dies mid-run and comes back: reads degrade to stale local copies
 * or clean 503s, nothing crashes, each outage is logged once, and it recovers by itself. The
 * Redis here is the test's own (never the shared one), started with no persistence.
 */
const canRun = redisServerForSuites();

describe.skipIf(!canRun)('a replica when Redis goes away and comes back', () => {
  let server: PrivateRedis;
  let replica: Replica;
  let keys: BootstrapKeys;

  beforeAll(async () => {
    server = await PrivateRedis.start();
    keys = writeBootstrap();
    replica = await Replica.start('outage', {
      REDIS_URL: server.url,
      REDIS_KEY_PREFIX: uniquePrefix('outage'),
      INGEST_LEASE_TTL_MS: '1500',
      GATEWAY_BOOTSTRAP: keys.path,
    });
    await eventually('the replica leads ingestion', async () => (await replica.status()).body.data.sharedState.ingestionLeader, 10_000);
  }, 60_000);

  afterAll(async () => {
    await replica?.stop();
    await server?.kill();
  });

  it('serves the last snapshots marked stale, answers clean 503s, stays up, then recovers by itself', async () => {
    const before = await (await replica.get('/api/v1/public/markets/BTC')).json();
    expect(before.freshness.stale).toBe(false);

    await server.kill();
    const down = await eventually(
      'status reports Redis unreachable',
      async () => {
        const s = await replica.status();
        return s.body.data.sharedState.connected === false ? s : undefined;
      },
      5_000,
    );
    expect(down.status).toBe(200);
    expect(down.body.data.sharedState).toMatchObject({ mode: 'redis', connected: false, lastError: expect.any(String) });
    expect(down.body.freshness.stale).toBe(true);

    const market = await replica.get('/api/v1/public/markets/BTC');
    expect(market.status).toBe(200);
    const marketBody = await market.json();
    expect(marketBody.data).toMatchObject({ id: 'BTC-PERP', price: expect.any(String) });
    expect(marketBody.freshness).toMatchObject({ stale: true, sourceStatus: 'down' });

    const list = await (await replica.get('/api/v1/public/markets')).json();
    expect(list.data).toHaveLength(10);
    expect(list.freshness.stale).toBe(true);

    const book = await replica.get('/api/v1/public/markets/BTC/orderbook');
    expect(book.status).toBe(503);
    expect(book.headers.get('content-type')).toMatch(/application\/json/);
    expect(await book.json()).toMatchObject({ code: 'public_orderbook_unavailable', retryable: true });

    // Candles live only in Redis: a clean 503, not a masked 500.
    const history = await replica.get('/api/v1/public/markets/ETH/history?resolution=1h&limit=5');
    expect(history.status).toBe(503);
    expect(await history.json()).toMatchObject({ code: 'shared_state_unavailable', retryable: true, retryAfter: 2 });

    // Not ready (the load balancer stops sending traffic), yet alive.
    const ready = await replica.get('/readyz');
    expect(ready.status).toBe(503);
    expect((await ready.json()).details.reasons).toContainEqual(expect.stringMatching(/^shared_state_disconnected/));
    expect((await replica.get('/healthz')).status).toBe(200);

    // A key cannot be checked: 503, never a 401 that would tell the client its key is bad.
    const auth = await replica.get('/api/v1/data/perps/price/BTC', { headers: bearer(keys.readOnly) });
    expect(auth.status).toBe(503);

    // Its lease cannot be renewed: it stops ingesting before another replica could take over.
    await eventually('the replica gives up ingestion', async () => (await replica.status()).body.data.sharedState.ingestionLeader === false, 5_000);
    expect(replica.alive).toBe(true);

    await server.start();
    await eventually(
      'recovered: connected, leading ingestion again, fresh snapshots',
      async () => {
        const { body } = await replica.status();
        return body.data.sharedState.connected && body.data.sharedState.ingestionLeader && body.data.cache.state === 'warm' && !body.freshness.stale;
      },
      20_000,
      200,
    );
    expect((await replica.get('/readyz')).status).toBe(200);
    const after = await (await replica.get('/api/v1/public/markets/BTC')).json();
    expect(after.freshness).toMatchObject({ stale: false, sourceStatus: 'healthy' });

    expect(replica.alive).toBe(true);
    expect(replica.logs(/^Redis unreachable/)).toHaveLength(1);
    expect(replica.logs(/^Redis connection restored/)).toHaveLength(1);
    expect(replica.logs(/^ingest round failed/).length).toBeLessThanOrEqual(1);
    expect(replica.logs(/^ingestion lease lost/)).toMatchObject([{ reason: 'not renewed in time' }]);
    expect(replica.lines.join('\n')).not.toMatch(/unhandled|uncaught/i);
  });
});
