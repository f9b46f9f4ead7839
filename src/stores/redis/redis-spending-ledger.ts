import { randomUUID } from 'node:crypto';
import type { Spending, SpendingLedger } from '../../sources/spending-ledger.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';

const KEPT_MS = 60_000;

/** KEYS[1]: the venue's ledger; ARGV: at, member, cut. Adds the spending, drops what left the minute, keeps the key two minutes. */
const SPEND = new LuaScript(`
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], 120000)
return 1`);

/** The fleet's spending per venue in a sorted set `spending:<venue>` (score = time sent, member = `<weight>:<unique>`). */
export class RedisSpendingLedger implements SpendingLedger {
  constructor(private readonly redis: RedisConnection) {}

  async spend(venue: string, spending: Spending): Promise<void> {
    const member = `${spending.weight}:${randomUUID()}`;
    await this.redis.guard(() => this.redis.run(SPEND, [this.redis.key('spending', venue)], [spending.at, member, spending.at - KEPT_MS]));
  }

  async recent(venue: string, since: number): Promise<Spending[]> {
    const entries = await this.redis.guard(() => this.redis.client.zRangeWithScores(this.redis.key('spending', venue), since, '+inf', { BY: 'SCORE' }));
    return entries.map((e) => ({ at: e.score, weight: Number(e.value.split(':', 1)[0]) }));
  }
}
