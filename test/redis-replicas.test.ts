import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { deleteKeys, redisForSuites, TEST_REDIS_URL, uniquePrefix } from './support/redis.js';
import { eventually, leaderAndFollower, Replica } from './support/replicas.js';

/**
 * The production topology in miniature: two gateway processes on one Redis behave as one
 * service (one ingestion leader, events and rate limits shared, leadership handed over).
 */
const available = await redisForSuites();
const LEASE_TTL_MS = 1_500;

describe.skipIf(!available)('several gateway replicas on one Redis', () => {
  const prefix = uniquePrefix('replicas');
  let keys: BootstrapKeys;
  let replicas: Replica[] = [];
  let leader: Replica;
  let follower: Replica;

  beforeAll(async () => {
    keys = writeBootstrap();
    const env = {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      INGEST_LEASE_TTL_MS: String(LEASE_TTL_MS),
      GATEWAY_BOOTSTRAP: keys.path,
      RATE_LIMIT_KEY_PER_MINUTE: '4',
    };
    replicas = await Promise.all(['a', 'b'].map((name) => Replica.start(name, env)));
    [leader, follower] = await leaderAndFollower(replicas);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    if (available) await deleteKeys(TEST_REDIS_URL, [prefix]);
  });

  it('runs ingestion on exactly one replica; the other serves the same snapshots from Redis', async () => {
    for (const r of [leader, follower]) {
      const { status, body } = await r.status();
      expect(status).toBe(200);
      expect(body.data.mode).toBe('redis');
      expect(body.data.sharedState).toMatchObject({ mode: 'redis', connected: true, lastError: null });
      expect(body.data.cache).toMatchObject({ state: 'warm', marketSnapshots: 10 });
    }
    expect(follower.logs(/ingestion lease acquired/)).toHaveLength(0);
    expect(follower.logs(/history backfilled/)).toHaveLength(0);
    const market = await (await follower.get('/api/v1/public/markets/BTC')).json();
    expect(market.freshness.stale).toBe(false);
    expect(market.data.price).toMatch(/^\d+\.\d$/); // BTC-PERP quotes one decimal
  });

  it('delivers an event ingested on one replica to a graphql-ws subscriber on another', async () => {
    const client = createWsClient({ url: `${follower.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    try {
      const event = await new Promise<any>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no marketUpdated event within 8 s')), 8_000);
        const stop = client.subscribe(
          { query: 'subscription { marketUpdated(asset: "BTC") { id price freshness { stale } } }' },
          {
            next: (value) => (clearTimeout(timer), stop(), value.errors ? reject(new Error(JSON.stringify(value.errors))) : resolve(value.data)),
            error: (e) => (clearTimeout(timer), reject(e instanceof Error ? e : new Error(JSON.stringify(e)))),
            complete: () => undefined,
          },
        );
      });
      expect(event.marketUpdated).toMatchObject({ id: 'BTC-PERP', freshness: { stale: false } });
    } finally {
      await client.dispose();
    }
  });

  it('counts rate limits across replicas', async () => {
    const headers = bearer(keys.readOnly);
    const path = '/api/v1/data/perps/price/BTC';
    for (const r of [leader, follower, leader, follower]) expect((await r.get(path, { headers })).status).toBe(200);
    for (const r of [leader, follower]) {
      const limited = await r.get(path, { headers });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('ratelimit-policy')).toBe('"api-key";q=4;w=60');
    }
  });

  it('shares keys: one made by the keys CLI on Redis works on every replica, and so does its revocation', async () => {
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['dist/src/cli/keys.js', ...args], {
        env: { PATH: process.env.PATH ?? '', REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix },
      });
    const created = JSON.parse((await cli('create', '--account', 'acct-1', '--scopes', 'data:read')).stdout) as { id: string; key: string };
    for (const r of [leader, follower])
      expect((await r.get('/api/v1/data/protocols/paper-perps/intelligence', { headers: bearer(created.key) })).status).toBe(200);
    await cli('revoke', created.id);
    for (const r of [leader, follower])
      expect((await r.get('/api/v1/data/protocols/paper-perps/intelligence', { headers: bearer(created.key) })).status).toBe(401);
  });

  it('hands ingestion over within seconds when the leader is killed', async () => {
    const killedAt = Date.now();
    leader.kill('SIGKILL');
    await leader.exited;
    const tookOver = await eventually(
      'the follower takes the lease',
      async () => ((await follower.status()).body.data.sharedState.ingestionLeader ? Date.now() : false),
      LEASE_TTL_MS + 5_000,
    );
    expect(tookOver - killedAt).toBeLessThan(LEASE_TTL_MS + 3_000);
    // Ingestion goes on: snapshots newer than the kill arrive through the new leader.
    await eventually(
      'fresh snapshots after the handover',
      async () => Date.parse((await follower.status()).body.data.cache.newestSnapshotAt) > tookOver,
      5_000,
    );
    expect(follower.logs(/ingestion lease acquired/)).toHaveLength(1);
    // The new leader found the history in Redis and did not backfill it again.
    const history = await (await follower.get('/api/v1/public/markets/ETH/history?resolution=1h&limit=48')).json();
    expect(history.data.points.length).toBe(48);
  });
});
