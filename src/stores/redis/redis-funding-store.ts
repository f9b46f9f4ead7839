import type { FundingEntry } from '../../domain/market.js';
import { FUNDING_RETENTION, type FundingStore } from '../../market-data/funding-store.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';

/** KEYS[1]: series; ARGV: time, entry JSON, retention. Appends only after the last entry, then trims to the retention. */
const APPEND = new LuaScript(`
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] and tonumber(last[2]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
return 1`);

/** Settled funding per market in a sorted set `funding:<market>` (score = settlement time, member = entry JSON). */
export class RedisFundingStore implements FundingStore {
  constructor(
    private readonly redis: RedisConnection,
    private readonly retention = FUNDING_RETENTION,
  ) {}

  async append(marketId: string, entry: FundingEntry): Promise<void> {
    const member = JSON.stringify({ time: entry.time, rate: entry.rate });
    await this.redis.guard(() => this.redis.run(APPEND, [this.redis.key('funding', marketId)], [entry.time, member, this.retention]));
  }

  async latest(marketId: string, limit: number): Promise<FundingEntry[]> {
    if (limit <= 0) return [];
    const members = await this.redis.guard(() => this.redis.client.zRange(this.redis.key('funding', marketId), -limit, -1));
    return members.map((m) => JSON.parse(m) as FundingEntry);
  }
}
