import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnswerEncoder } from '../src/http/rest/answer-encoding.js';
import { PublicAnswerCache } from '../src/http/rest/public-answer-cache.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { deleteKeys, redisForSuites, RedisTestConnections, TEST_REDIS_URL, uniquePrefix } from './support/redis.js';

/**
 * Public answers rendered once per snapshot version (src/http/rest/public-answer-cache.ts) and
 * their br/gzip (src/http/rest/answer-encoding.ts), through real HTTP: a re-timed answer is byte
 * for byte the answer the resolvers would execute at that instant. The same assertions hold for an
 * embedded gateway and for a Redis replica that learns of the ingest leader's writes through its
 * invalidations (two gateways on one Redis, one prefix).
 */
const NOW = Date.parse('2026-11-18T17:00:30.000Z');
const IDENTITY = { 'accept-encoding': 'identity' };
const PATHS = [
  '/api/v1/public/markets',
  '/api/v1/public/markets/BTC',
  '/api/v1/public/markets/NOPE',
  '/api/v1/public/markets/BTC/orderbook',
  '/api/v1/public/data/markets.json',
  '/api/v1/public/status',
  '/api/v1/public/protocols/paper-perps',
  '/api/v1/public/data/protocols.json',
];

const answer = vi.spyOn(PublicAnswerCache.prototype, 'answer');
const redisUp = await redisForSuites();

/** The gateway whose answers are checked, and where the snapshots it serves are written. */
interface Setup {
  gw: TestGateway;
  /** Every gateway of the setup: their clocks move together. */
  gateways: TestGateway[];
  /** An ingest round by the writer (the gateway itself, or the ingest leader), returned once `gw` has learnt of all of it. */
  poll(): Promise<void>;
  close(): Promise<void>;
}

async function embedded(): Promise<Setup> {
  const gw = await startGateway({}, NOW);
  return { gw, gateways: [gw], poll: () => gw.app.services.ingest.pollAll(), close: () => gw.close() };
}

/**
 * Two replicas on one Redis: the leader ingests (driven by the test), the follower's answers are
 * checked. The local copies' age bound is far beyond the test, so only invalidations move the version.
 */
async function redisReplicas(): Promise<Setup> {
  const prefix = uniquePrefix('answers');
  const config = { mode: 'redis', redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefix, redisLocalCopyMaxAgeMs: 3_600_000 } as const;
  const leader = await startGateway(config, NOW);
  const follower = await startGateway(config, NOW);
  // A barrier: a message published after the leader's writes reaches the follower after their invalidations.
  const connections = new RedisTestConnections();
  const publisher = await connections.open(prefix);
  const waiting = new Map<string, () => void>();
  follower.app.stores.cache.onListingChanged((id) => waiting.get(id)?.());
  const barrier = async () => {
    const id = `barrier-${randomUUID()}`;
    const arrived = new Promise<void>((resolve) => waiting.set(id, resolve));
    await publisher.client.publish(publisher.key('snapshot', 'changed'), `test|listing|${id}`);
    await arrived;
    waiting.delete(id);
  };
  return {
    gw: follower,
    gateways: [follower, leader],
    async poll() {
      await leader.app.services.ingest.pollAll();
      await barrier();
    },
    async close() {
      await Promise.all([leader.close(), follower.close()]);
      await connections.cleanup();
      await deleteKeys(TEST_REDIS_URL, [prefix]);
    },
  };
}

const SETUPS = [
  { name: 'embedded', start: embedded, skip: false, redis: false },
  { name: 'Redis replica', start: redisReplicas, skip: !redisUp, redis: true },
];

afterAll(() => answer.mockRestore());

async function text(gw: TestGateway, path: string): Promise<{ status: number; body: string; headers: Headers }> {
  const res = await gw.get(path, { headers: IDENTITY });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** The raw bytes and headers of one answer (fetch would decode them). */
function raw(gw: TestGateway, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(gw.baseUrl + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer the resolvers execute at this instant: the remembered one is not consulted. */
async function executed(gw: TestGateway, path: string) {
  answer.mockImplementationOnce(() => undefined);
  return text(gw, path);
}

/** Polls `check` every few milliseconds until it holds (3 s at most). */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

const servedRendered = () => answer.mock.results.some((r) => r.type === 'return' && r.value !== undefined);

describe.each(SETUPS)('$name', ({ start, skip, redis }) => {
  let setup: Setup;
  let fast: TestGateway;
  /** Moves every gateway's clock of the setup. */
  const advance = (ms: number) => setup.gateways.forEach((g) => g.clock.advance(ms));
  beforeAll(async () => {
    if (skip) return;
    setup = await start();
    fast = setup.gw;
  }, 60_000);
  afterAll(async () => {
    await setup?.close();
  });

  describe.skipIf(skip || !redis)('across replicas', () => {
    it("serves a change the leader wrote from the follower's first read after its invalidation arrived, byte for byte the leader's", async () => {
      const leader = setup.gateways[1]!;
      const path = '/api/v1/public/markets/BTC';
      await text(fast, path);
      answer.mockClear();
      await text(fast, path);
      expect(servedRendered()).toBe(true);
      const version = fast.app.services.answerVersion();
      expect(version).toEqual(expect.any(String));
      const current = (await leader.app.stores.cache.getMarket('BTC-PERP'))!;
      // One write, so one invalidation: the follower's version moves when it arrives.
      await leader.app.stores.cache.putMarket({ ...current, price: '12345.6' });
      await until(() => fast.app.services.answerVersion() !== version);
      answer.mockClear();
      const after = await text(fast, path);
      expect(servedRendered()).toBe(false);
      expect(JSON.parse(after.body).data.price).toBe('12345.6');
      expect(after.body).toBe((await text(leader, path)).body);
      // Remembered at the new version, and re-timed to exactly what the resolvers execute.
      advance(7);
      answer.mockClear();
      const hit = await text(fast, path);
      expect(servedRendered()).toBe(true);
      expect(hit.body).toBe((await executed(fast, path)).body);
      expect(hit.body).toBe((await text(leader, path)).body);
    });

    it('does not keep an answer rendered from data read before an invalidation that arrived meanwhile', async () => {
      const leader = setup.gateways[1]!;
      const path = '/api/v1/public/markets/BTC';
      const cache = fast.app.stores.cache;
      const before = await cache.getMarkets(['BTC-PERP']);
      // The follower's next read of the market waits, then returns what it held before the write.
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let started!: () => void;
      const reading = new Promise<void>((r) => (started = r));
      const read = vi.spyOn(cache, 'getMarkets').mockImplementationOnce(async () => {
        started();
        await gate;
        return before;
      });
      try {
        const inFlight = executed(fast, path);
        await reading;
        const version = fast.app.services.answerVersion();
        const current = (await leader.app.stores.cache.getMarket('BTC-PERP'))!;
        await leader.app.stores.cache.putMarket({ ...current, price: '45678.9' });
        await until(() => fast.app.services.answerVersion() !== version);
        release();
        // The request in flight answers from what it read, as in embedded mode; nothing after it does.
        expect(JSON.parse((await inFlight).body).data.price).toBe(before[0]!.price);
        answer.mockClear();
        const next = await text(fast, path);
        expect(servedRendered()).toBe(false);
        expect(JSON.parse(next.body).data.price).toBe('45678.9');
        expect(next.body).toBe((await text(leader, path)).body);
      } finally {
        read.mockRestore();
      }
    });

    it("gives a mirror the same ETag on every replica, executed or re-timed, and a 304 for another replica's", async () => {
      const leader = setup.gateways[1]!;
      await setup.poll();
      for (const path of ['/api/v1/public/data/markets.json', '/api/v1/public/data/protocols.json']) {
        const executedOnce = await text(fast, path);
        answer.mockClear();
        const retimed = await text(fast, path);
        expect(servedRendered()).toBe(true);
        const onLeader = await text(leader, path);
        const etag = onLeader.headers.get('etag')!;
        expect(etag).toMatch(/^W\/".+"$/);
        expect(executedOnce.headers.get('etag')).toBe(etag);
        expect(retimed.headers.get('etag')).toBe(etag);
        expect((await fast.get(path, { headers: { 'if-none-match': etag } })).status).toBe(304);
      }
    });
  });

  describe.skipIf(skip)('answers rendered once per snapshot version', () => {
    it('re-times a remembered answer to exactly what the resolvers execute at that instant', async () => {
      for (const path of PATHS) await text(fast, path);
      // Within the order book's 5 s and the markets' 60 s, across both, and long after.
      for (const step of [1, 1_233, 2_766, 1_001, 54_000, 999, 2, 60_000]) {
        advance(step);
        for (const path of PATHS) {
          answer.mockClear();
          const hit = await text(fast, path);
          expect(servedRendered()).toBe(true);
          // The resolvers' answer at this instant, the remembered one not consulted.
          const fresh = await executed(fast, path);
          expect(hit.status).toBe(fresh.status);
          expect(hit.body).toBe(fresh.body);
          expect(hit.headers.get('cache-control')).toBe(fresh.headers.get('cache-control'));
          expect(hit.headers.get('etag')).toBe(fresh.headers.get('etag'));
        }
      }
    });

    it('renders again after a write to the snapshot cache', async () => {
      const before = await text(fast, '/api/v1/public/markets/BTC');
      advance(1_000);
      await setup.poll();
      answer.mockClear();
      const after = await text(fast, '/api/v1/public/markets/BTC');
      expect(servedRendered()).toBe(false);
      expect(JSON.parse(after.body).freshness.asOf).not.toBe(JSON.parse(before.body).freshness.asOf);
      expect(JSON.parse(after.body).freshness.freshnessMs).toBe(0);
    });

    it('renders again after an operator changes a certification', async () => {
      const path = '/api/v1/public/protocols/paper-perps';
      const before = await text(fast, path);
      const action = fast.app.services.protocols.get('paper-perps')!.actions[0]!;
      const state = action.certification === 'certified' ? 'disabled' : 'certified';
      fast.app.services.protocols.setCertification('paper-perps', action.id, state, new Date(fast.clock.now()).toISOString());
      answer.mockClear();
      const after = await text(fast, path);
      expect(servedRendered()).toBe(false);
      expect(after.body).not.toBe(before.body);
      const executed = await text(fast, `${path}?after-change=1`);
      expect(after.body).toBe(executed.body);
    });

    it("changes the mirror's ETag exactly when the snapshot version or a stale flag changes, and answers 304 until then", async () => {
      const path = '/api/v1/public/data/markets.json';
      await setup.poll();
      const first = await text(fast, path);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/".+"$/);
      advance(20_000);
      const later = await text(fast, path);
      expect(later.headers.get('etag')).toBe(etag);
      expect(later.body).not.toBe(first.body); // freshnessMs moved; the validator is weak
      expect((await fast.get(path, { headers: { 'if-none-match': etag } })).status).toBe(304);
      // Past the max age the markets go stale: a new validator, without any write.
      advance(41_000);
      const stale = await text(fast, path);
      expect(JSON.parse(stale.body).freshness.stale).toBe(true);
      expect(stale.headers.get('etag')).not.toBe(etag);
      // A write: a new validator, and the old one no longer matches.
      await setup.poll();
      const written = await text(fast, path);
      expect(written.headers.get('etag')).not.toBe(stale.headers.get('etag'));
      expect(written.headers.get('etag')).not.toBe(etag);
      expect((await fast.get(path, { headers: { 'if-none-match': stale.headers.get('etag')! } })).status).toBe(200);
      expect((await fast.get(path, { headers: { 'if-none-match': written.headers.get('etag')! } })).status).toBe(304);
    });

    it('negotiates br and gzip for bodies from 1 KB, decoding to the identity bytes', async () => {
      for (const gw of [fast]) {
        for (const path of ['/api/v1/public/markets', '/api/v1/public/openapi.public.json', '/api/v1/public/markets/BTC/orderbook']) {
          const identity = await raw(gw, path, IDENTITY);
          expect(identity.headers['content-encoding']).toBeUndefined();
          expect(identity.headers.vary).toMatch(/Accept-Encoding/);
          for (const [accept, coding, decode] of [
            ['br', 'br', brotliDecompressSync],
            ['gzip, deflate', 'gzip', gunzipSync],
            ['gzip;q=1, br;q=0', 'gzip', gunzipSync],
            ['*', 'br', brotliDecompressSync],
          ] as const) {
            const encoded = await raw(gw, path, { 'accept-encoding': accept });
            expect(encoded.status).toBe(200);
            expect(encoded.headers['content-encoding']).toBe(coding);
            expect(encoded.headers.vary).toMatch(/Accept-Encoding/);
            expect(Number(encoded.headers['content-length'])).toBe(encoded.body.length);
            expect(decode(encoded.body).toString()).toBe(identity.body.toString());
          }
          expect((await raw(gw, path, { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
          // `*` covers only the codings not refused by name (RFC 9110 §12.5.3).
          expect((await raw(gw, path, { 'accept-encoding': 'br;q=0, *' })).headers['content-encoding']).toBe('gzip');
          expect((await raw(gw, path, { 'accept-encoding': 'br;q=0, gzip;q=0, *' })).headers['content-encoding']).toBeUndefined();
        }
        // Under 1 KB: as it is.
        const small = await raw(gw, '/api/v1/public/markets/BTC', { 'accept-encoding': 'br, gzip' });
        expect(small.body.length).toBeLessThan(1024);
        expect(small.headers['content-encoding']).toBeUndefined();
      }
    });
    it('serves every request of one millisecond the same re-timed answer and encodings, and re-times at the next', async () => {
      const encode = vi.spyOn(AnswerEncoder.prototype, 'encode');
      try {
        for (const gw of [fast]) {
          const path = '/api/v1/public/markets';
          await raw(gw, path, IDENTITY); // remembered
          for (const accept of ['identity', 'br', 'gzip']) {
            answer.mockClear();
            encode.mockClear();
            const first = await raw(gw, path, { 'accept-encoding': accept });
            const second = await raw(gw, path, { 'accept-encoding': accept });
            expect(second.body.equals(first.body)).toBe(true);
            // What is per request stays per request.
            expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
            expect(second.headers.ratelimit).not.toBe(first.headers.ratelimit);
            const [a, b] = answer.mock.results.map((r) => r.value as unknown);
            expect(a).toBeDefined();
            expect(b).toBe(a); // one re-timing for the millisecond
            const [e1, e2] = encode.mock.results.map((r) => r.value as unknown);
            expect(e2).toBe(e1); // one encoding (no second brotli/gzip) for the millisecond
            advance(1);
            encode.mockClear();
            const next = await raw(gw, path, { 'accept-encoding': accept });
            expect(encode.mock.results[0]!.value).not.toBe(e1);
            expect(next.body.equals(first.body)).toBe(false); // generatedAt and freshnessMs moved
          }
        }
      } finally {
        encode.mockRestore();
      }
    });
  });

  // Candles in Redis carry no version: a Redis replica executes every history answer.
  describe.skipIf(skip || redis)('history answers rendered once per snapshot version, candle version and bucket', () => {
    const DAILY = '/api/v1/public/markets/BTC/history';
    const MINUTES = '/api/v1/public/markets/BTC/history?resolution=1m&limit=60';
    const HOURS_TO = '/api/v1/public/markets/BTC/history?resolution=1h&limit=24&to=2026-11-18T16:30:00Z';

    /** Moves the clock to `offset` ms into the next minute (minute candles open and close on the minute). */
    function toMinute(gw: TestGateway, offset: number): void {
      advance(60_000 - (gw.clock.now() % 60_000) + offset);
    }

    it('re-times a remembered history to exactly what the resolvers execute, while no candle is written', async () => {
      for (const gw of [fast]) {
        toMinute(gw, 100);
        await setup.poll();
        for (const path of [DAILY, MINUTES, HOURS_TO]) await text(gw, path);
        for (const step of [1, 999, 1_500, 20_000]) {
          advance(step);
          for (const path of [DAILY, MINUTES, HOURS_TO]) {
            answer.mockClear();
            const hit = await text(gw, path);
            expect(servedRendered()).toBe(true);
            const body = JSON.parse(hit.body);
            expect(body.generatedAt).toBe(new Date(gw.clock.now()).toISOString());
            if (path !== HOURS_TO) expect(body.data.to).toBe(body.generatedAt);
            const fresh = await executed(gw, path);
            expect(hit.status).toBe(fresh.status);
            expect(hit.body).toBe(fresh.body);
            expect(hit.headers.get('cache-control')).toBe(fresh.headers.get('cache-control'));
          }
        }
      }
    });

    it('executes again after a candle write alone, and serves the new candle', async () => {
      for (const gw of [fast]) {
        toMinute(gw, 100);
        await setup.poll();
        const before = await text(gw, MINUTES);
        advance(500);
        // A re-timed answer of this very millisecond, held for the requests of the millisecond: not served after the write.
        answer.mockClear();
        await text(gw, MINUTES);
        expect(servedRendered()).toBe(true);
        const market = gw.app.services.reader.directory.resolve('BTC')!;
        const snapshotVersion = gw.app.services.answerVersion();
        const last = JSON.parse(before.body).data.points.at(-1);
        await gw.app.stores.candles.record(market.id, { time: gw.clock.now(), price: '1', volume: '7' });
        expect(gw.app.services.answerVersion()).toBe(snapshotVersion); // only the candles moved
        answer.mockClear();
        const after = await text(gw, MINUTES);
        expect(servedRendered()).toBe(false);
        const point = JSON.parse(after.body).data.points.at(-1);
        expect(point.start).toBe(last.start);
        expect(point.low).toBe('1');
        expect(point.volume).not.toBe(last.volume);
        expect(after.body).toBe((await executed(gw, MINUTES)).body);
        // Remembered again at the new candle version.
        answer.mockClear();
        expect((await text(gw, MINUTES)).body).toBe((await executed(gw, MINUTES)).body);
        expect(servedRendered()).toBe(true);
      }
    });

    it('executes again once a bucket boundary passes: the open candle closes and the default range moves', async () => {
      for (const gw of [fast]) {
        toMinute(gw, 59_000);
        await setup.poll();
        const before = JSON.parse((await text(gw, MINUTES)).body);
        expect(before.data.points.at(-1).closed).toBe(false);
        advance(999);
        answer.mockClear();
        await text(gw, MINUTES);
        expect(servedRendered()).toBe(true); // still within the minute
        advance(2);
        answer.mockClear();
        const after = await text(gw, MINUTES);
        expect(servedRendered()).toBe(false);
        const points = JSON.parse(after.body).data.points;
        const closed = points.find((p: { start: string }) => p.start === before.data.points.at(-1).start);
        expect(closed?.closed).toBe(true);
        expect(after.body).toBe((await executed(gw, MINUTES)).body);
      }
    });
  });
});
