import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from 'redis';
import { PublicAnswerCache } from '../src/http/rest/public-answer-cache.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { PrivateRedis, redisServerForSuites, uniquePrefix } from './support/redis.js';

/**
 * A Redis replica renders public answers once per version only while it hears every invalidation:
 * when its subscription drops it renders every answer (reading Redis, not its local copies), and
 * once it has subscribed again its version has moved past everything rendered before. Two
 * gateways on a redis-server of the test's own, whose subscriber connections are killed and kept
 * out (maxclients) while their command connections stay.
 */
const canRun = redisServerForSuites();
const NOW = Date.parse('2026-11-18T17:00:30.000Z');
const PATH = '/api/v1/public/markets/BTC';

const answer = vi.spyOn(PublicAnswerCache.prototype, 'answer');
const servedRendered = () => answer.mock.results.some((r) => r.type === 'return' && r.value !== undefined);

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe.skipIf(!canRun)('a Redis replica whose subscription drops', () => {
  let server: PrivateRedis;
  let admin: ReturnType<typeof createClient>;
  let leader: TestGateway;
  let follower: TestGateway;

  beforeAll(async () => {
    server = await PrivateRedis.start();
    admin = createClient({ url: server.url });
    await admin.connect();
    const config = { mode: 'redis', redisUrl: server.url, redisKeyPrefix: uniquePrefix('dropped'), redisLocalCopyMaxAgeMs: 3_600_000 } as const;
    leader = await startGateway(config, NOW);
    follower = await startGateway(config, NOW);
  }, 60_000);

  afterAll(async () => {
    answer.mockRestore();
    await admin?.configSet('maxclients', '10000').catch(() => undefined);
    await Promise.all([leader?.close(), follower?.close()]);
    await admin?.quit();
    await server?.kill();
  });

  const body = async (gw: TestGateway) => (await gw.get(PATH, { headers: { 'accept-encoding': 'identity' } })).text();
  const price = async (gw: TestGateway, to: string) => {
    const current = (await leader.app.stores.cache.getMarket('BTC-PERP'))!;
    await gw.app.stores.cache.putMarket({ ...current, price: to });
  };

  it('renders every answer from Redis until it has subscribed again, then versions them anew', async () => {
    await body(follower);
    answer.mockClear();
    await body(follower);
    expect(servedRendered()).toBe(true);
    const before = follower.app.services.answerVersion();
    expect(before).toEqual(expect.any(String));

    // Every subscriber connection is cut, and none may come back for now (commands stay connected).
    await admin.configSet('maxclients', '1');
    await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await until('the follower notices', () => follower.app.services.answerVersion() === undefined, 5_000);

    // A write it cannot hear of: its next read shows it anyway, rendered, and so does every one after.
    await price(leader, '23456.7');
    for (let i = 0; i < 3; i++) {
      follower.clock.advance(3);
      leader.clock.advance(3);
      answer.mockClear();
      const text = await body(follower);
      expect(servedRendered()).toBe(false);
      expect(JSON.parse(text).data.price).toBe('23456.7');
      expect(text).toBe(await body(leader));
    }
    expect(follower.app.services.answerVersion()).toBeUndefined();

    // Subscribed again: versioned again, past the version of everything rendered before the drop.
    await admin.configSet('maxclients', '10000');
    await until('the follower subscribes again', () => follower.app.services.answerVersion() !== undefined, 10_000);
    expect(follower.app.services.answerVersion()).not.toBe(before);
    await body(follower);
    answer.mockClear();
    const hit = await body(follower);
    expect(servedRendered()).toBe(true);
    expect(JSON.parse(hit).data.price).toBe('23456.7');

    // And it hears the leader's writes again.
    const version = follower.app.services.answerVersion();
    await price(leader, '34567.8');
    await until('the invalidation arrives', () => follower.app.services.answerVersion() !== version, 3_000);
    answer.mockClear();
    const after = await body(follower);
    expect(servedRendered()).toBe(false);
    expect(JSON.parse(after).data.price).toBe('34567.8');
    expect(after).toBe(await body(leader));
  }, 30_000);
});
