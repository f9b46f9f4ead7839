import { foldObservation } from '../../domain/candle-fold.js';
import { DEFAULT_CANDLE_TIERS, type Candle, type CandleTier, type PriceObservation } from '../../domain/candle.js';
import type { CandleRange, CandleSeries, CandleStore } from '../../market-data/candle-store.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';

/**
 * KEYS: per tier its series and its index set. ARGV[1]: market id, then per tier: the last
 * member the caller folded from ('' for an empty series), bucket start, new member, 1 to replace
 * the last member. Writes nothing unless every tier still ends where the caller read it.
 */
const RECORD = new LuaScript(`
for i = 1, #KEYS, 2 do
  local a = 1 + (i - 1) * 2
  local last = redis.call('ZRANGE', KEYS[i], -1, -1)[1] or ''
  if last ~= ARGV[a + 1] then return 0 end
end
for i = 1, #KEYS, 2 do
  local a = 1 + (i - 1) * 2
  if ARGV[a + 4] == '1' then redis.call('ZREM', KEYS[i], ARGV[a + 1]) end
  if ARGV[a + 1] == '' then redis.call('SADD', KEYS[i + 1], ARGV[1]) end
  redis.call('ZADD', KEYS[i], ARGV[a + 2], ARGV[a + 3])
end
return 1`);

/** KEYS: series; ARGV: per key its from and to. Answers every range in one round trip. */
const RANGE_MANY = new LuaScript(`
local out = {}
for i = 1, #KEYS do
  out[i] = redis.call('ZRANGE', KEYS[i], ARGV[i * 2 - 1], ARGV[i * 2], 'BYSCORE')
end
return out`);

/** KEYS: series. Answers each series' oldest bucket start ('' when empty) in one round trip. */
const EARLIEST_MANY = new LuaScript(`
local out = {}
for i = 1, #KEYS do
  local first = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
  out[i] = first[2] or ''
end
return out`);

const MAX_ATTEMPTS = 5;
const ZADD_CHUNK = 1_000;

/**
 * Candle tiers in Redis: a sorted set per market and tier, `candles:<market>:<resolutionMs>`
 * (score = bucket start, member = candle JSON), and per tier an index set of its markets for
 * pruning. Observations are folded here with decimal arithmetic and written with a
 * compare-and-set script, so a concurrent writer (an ingest handover) never loses an update.
 */
export class RedisCandleStore implements CandleStore {
  constructor(
    private readonly redis: RedisConnection,
    readonly tiers: readonly CandleTier[] = DEFAULT_CANDLE_TIERS,
  ) {}

  private series(marketId: string, resolutionMs: number): string {
    return this.redis.key('candles', marketId, resolutionMs);
  }

  private index(resolutionMs: number): string {
    return this.redis.key('candles', 'index', resolutionMs);
  }

  async record(marketId: string, o: PriceObservation): Promise<void> {
    await this.redis.guard(() => this.recordOnce(marketId, o));
  }

  private async recordOnce(marketId: string, o: PriceObservation): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const lasts = await Promise.all(this.tiers.map((t) => this.redis.client.zRange(this.series(marketId, t.resolutionMs), -1, -1)));
      const keys: string[] = [];
      const args: (string | number)[] = [marketId];
      this.tiers.forEach((tier, i) => {
        const raw = lasts[i]![0];
        const last = raw === undefined ? undefined : (JSON.parse(raw) as Candle);
        const bucket = Math.floor(o.time / tier.resolutionMs) * tier.resolutionMs;
        if (last && last.start > bucket) return; // late observation for a closed bucket: ignore
        keys.push(this.series(marketId, tier.resolutionMs), this.index(tier.resolutionMs));
        args.push(raw ?? '', bucket, JSON.stringify(foldObservation(last, bucket, o)), last?.start === bucket ? 1 : 0);
      });
      if (keys.length === 0) return;
      if ((await this.redis.run(RECORD, keys, args)) === 1) return;
    }
    throw new Error(`candles of ${marketId}: concurrent writers kept conflicting`);
  }

  async putCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    const key = this.series(marketId, resolutionMs);
    const multi = this.redis.client.multi().del(key).sAdd(this.index(resolutionMs), marketId);
    for (let i = 0; i < candles.length; i += ZADD_CHUNK) {
      multi.zAdd(
        key,
        candles.slice(i, i + ZADD_CHUNK).map((c) => ({ score: c.start, value: JSON.stringify(c) })),
      );
    }
    await this.redis.guard(() => multi.exec());
  }

  async upsertCandles(marketId: string, resolutionMs: number, candles: readonly Candle[]): Promise<void> {
    if (candles.length === 0) return;
    const key = this.series(marketId, resolutionMs);
    const multi = this.redis.client.multi().sAdd(this.index(resolutionMs), marketId);
    // One member per bucket start: the stored candle of each start is replaced.
    for (const c of candles) multi.zRemRangeByScore(key, c.start, c.start).zAdd(key, { score: c.start, value: JSON.stringify(c) });
    await this.redis.guard(() => multi.exec());
  }

  async latest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    const [last] = await this.redis.guard(() => this.redis.client.zRangeWithScores(this.series(marketId, resolutionMs), -1, -1));
    return last?.score;
  }

  async range(marketId: string, resolutionMs: number, from: number, to: number): Promise<Candle[]> {
    const members = await this.redis.guard(() => this.redis.client.zRange(this.series(marketId, resolutionMs), from, to, { BY: 'SCORE' }));
    return members.map((m) => JSON.parse(m) as Candle);
  }

  async rangeMany(requests: readonly CandleRange[]): Promise<Candle[][]> {
    if (requests.length === 0) return [];
    const keys = requests.map((r) => this.series(r.marketId, r.resolutionMs));
    const answer = (await this.redis.guard(() =>
      this.redis.run(
        RANGE_MANY,
        keys,
        requests.flatMap((r) => [r.from, r.to]),
      ),
    )) as string[][];
    return answer.map((members) => members.map((m) => JSON.parse(m) as Candle));
  }

  async earliestMany(series: readonly CandleSeries[]): Promise<(number | undefined)[]> {
    if (series.length === 0) return [];
    const answer = (await this.redis.guard(() =>
      this.redis.run(
        EARLIEST_MANY,
        series.map((s) => this.series(s.marketId, s.resolutionMs)),
      ),
    )) as string[];
    return answer.map((score) => (score === '' ? undefined : Number(score)));
  }

  async earliest(marketId: string, resolutionMs: number): Promise<number | undefined> {
    const [first] = await this.redis.guard(() => this.redis.client.zRangeWithScores(this.series(marketId, resolutionMs), 0, 0));
    return first?.score;
  }

  async prune(now: number): Promise<void> {
    await this.redis.guard(async () => {
      for (const tier of this.tiers) {
        const markets = await this.redis.client.sMembers(this.index(tier.resolutionMs));
        await Promise.all(markets.map((m) => this.redis.client.zRemRangeByScore(this.series(m, tier.resolutionMs), '-inf', `(${now - tier.retentionMs}`)));
      }
    });
  }
}
