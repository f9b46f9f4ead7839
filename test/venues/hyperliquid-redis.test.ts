import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHyperliquidReplay, type HyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import { deleteKeys, redisForSuites, TEST_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { eventually, leaderAndFollower, Replica } from '../support/replicas.js';
import { peakWeight } from '../support/venue-gateway.js';

/**
 * Hyperliquid in Redis mode, two gateway processes on one Redis: only the ingestion leader talks
 * to the venue (one stream, one budget for the fleet), the other serves what it wrote, and a
 * handover reopens the stream on the new leader without the fleet passing the budget.
 */
const available = await redisForSuites();
const LEASE_TTL_MS = 1_500;
const BUDGET = 400;
const POLL_MS = 5_000; // 20 weight a poll: 240 of the 400 a minute kept for polls, history gets the rest

describe.skipIf(!available)('Hyperliquid on two replicas sharing Redis', () => {
  const prefix = uniquePrefix('hl-replicas');
  let fake: HyperliquidReplay;
  let replicas: Replica[] = [];
  let leader: Replica;
  let follower: Replica;

  beforeAll(async () => {
    fake = await startHyperliquidReplay({ perpCount: 40 });
    const env = {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      INGEST_LEASE_TTL_MS: String(LEASE_TTL_MS),
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
      HYPERLIQUID_NETWORK: 'mainnet',
      HYPERLIQUID_API_URL: fake.httpUrl,
      HYPERLIQUID_WS_URL: fake.wsUrl,
      HYPERLIQUID_POLL_MS: String(POLL_MS),
      HYPERLIQUID_WEIGHT_PER_MINUTE: String(BUDGET),
    };
    replicas = await Promise.all(['hl-a', 'hl-b'].map((name) => Replica.start(name, env)));
    [leader, follower] = await leaderAndFollower(replicas);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await fake?.close();
    if (available) await deleteKeys(TEST_REDIS_URL, [prefix]);
  });

  it('only the leader talks to the venue: one stream; the follower serves the same venue figures and history from Redis', async () => {
    await eventually('the leader’s stream', async () => fake.controls.wsConnections() === 1, 10_000);
    const [a, b] = await Promise.all([leader, follower].map(async (r) => (await (await r.get('/api/v1/public/markets/BTC')).json()).data));
    expect(a.protocol).toBe('hyperliquid');
    expect(b.openInterest).toBe(a.openInterest);
    const days = await eventually(
      'BTC days written by the leader, read on the follower',
      async () => {
        const points = (await (await follower.get('/api/v1/public/markets/BTC/history?resolution=1d&limit=366')).json()).data.points;
        return points.length > 300 ? points : undefined;
      },
      20_000,
    );
    expect(days.every((p: any) => /^\d+(\.\d+)?$/.test(p.close))).toBe(true);
    // Still one connection: the follower never opened its own.
    expect(fake.controls.wsConnections()).toBe(1);
  });

  it('a listing the leader sees is listed on the follower too (the catalogue is shared, not polled twice)', async () => {
    fake.controls.listAsset({ name: 'FLEETCOIN', px: 3.25, szDecimals: 1 });
    const listed = await eventually(
      'the listing on the follower',
      async () => {
        const list = (await (await follower.get('/api/v1/public/markets')).json()).data as { id: string; price: string }[];
        return list.some((m) => m.id === 'FLEETCOIN-PERP') ? list : undefined;
      },
      15_000,
    );
    expect(listed.find((m) => m.id === 'FLEETCOIN-PERP')!.price).toBe('3.25');
    expect((await (await follower.get('/api/v1/public/markets/FLEETCOIN-PERP')).json()).data.protocol).toBe('hyperliquid');
  });

  it('hands the venue over when the leader dies: the new leader reopens the stream, and the fleet keeps one budget', async () => {
    leader.kill('SIGKILL');
    await leader.exited;
    await eventually(
      'the follower takes the lease',
      async () => (await follower.status()).body.data.sharedState.ingestionLeader === true,
      LEASE_TTL_MS + 5_000,
    );
    await eventually('the new leader’s stream', async () => fake.controls.wsConnections() === 1 && fake.controls.wsSubscriptions().length > 0, 10_000);
    const before = (await (await follower.get('/api/v1/public/markets/BTC/orderbook')).json()).freshness?.asOf;
    await eventually(
      'a book streamed to the new leader',
      async () => {
        fake.controls.pushL2Book('BTC');
        const res = await follower.get('/api/v1/public/markets/BTC/orderbook');
        return res.status === 200 && (await res.json()).freshness.asOf !== before;
      },
      10_000,
    );
    // Polls go on through the new leader, within the budget the dead one was spending.
    const polls = fake.controls.requests().filter((r) => r.type === 'metaAndAssetCtxs').length;
    await eventually('a poll after the handover', async () => fake.controls.requests().filter((r) => r.type === 'metaAndAssetCtxs').length > polls, 12_000);
    expect(peakWeight(fake)).toBeLessThanOrEqual(BUDGET);
  });
});
