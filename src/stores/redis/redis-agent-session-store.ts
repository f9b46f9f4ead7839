import { Decimal } from '../../domain/decimal.js';
import type { AgentSessionStore } from '../../execution/execution-stores.js';
import type { AgentSession } from '../../execution/execution-types.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';
import { json } from './redis-json.js';

/**
 * KEYS[1] period counter in cents, KEYS[2] its entries; ARGV: amount cents, cap cents, ttl, entry id ('' for none). Adds unless it would pass
 * the cap. Cents keep Lua's double arithmetic exact up to 9e13 USD.
 */
const ADD_SPEND = new LuaScript(`
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if spent + amount > tonumber(ARGV[2]) then return {0, tostring(spent)} end
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return {1, tostring(total)}`);

/** KEYS[1] counter, KEYS[2] entries hash; ARGV: entry id, amount cents. Moves the counter by the entry's change. */
const SETTLE_SPEND = new LuaScript(`
local before = redis.call('HGET', KEYS[2], ARGV[1])
if not before then return 0 end
local delta = tonumber(ARGV[2]) - tonumber(before)
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
if spent + delta < 0 then delta = -spent end
redis.call('INCRBY', KEYS[1], delta)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`);

const cents = (usd: string, rounding: Decimal.Rounding) => new Decimal(usd).mul(100).toFixed(0, rounding);

export class RedisAgentSessionStore implements AgentSessionStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (id: string) => this.redis.key('agent-session', id);
  private index = (accountId: string) => this.redis.key('agent-sessions', accountId);
  async put(s: AgentSession) {
    return this.redis.guard(async () => {
      await this.redis.client.multi().set(this.k(s.id), JSON.stringify(s)).sAdd(this.index(s.accountId), s.id).exec();
    });
  }
  async get(id: string) {
    return this.redis.guard(async () => {
      return json<AgentSession>(await this.redis.client.get(this.k(id)));
    });
  }
  async list(accountId: string) {
    return this.redis.guard(async () => {
      const ids = await this.redis.client.sMembers(this.index(accountId));
      if (ids.length === 0) return [];
      const raw = await this.redis.client.mGet(ids.map((id) => this.k(id)));
      return raw.flatMap((r) => (r ? [JSON.parse(r) as AgentSession] : []));
    });
  }
  private spendKeys = (sessionId: string, periodStart: number) => [
    this.redis.key('agent-spend', sessionId, periodStart),
    this.redis.key('agent-spend-entries', sessionId, periodStart),
  ];
  async spent(sessionId: string, periodStart: number) {
    return this.redis.guard(async () => {
      const c = await this.redis.client.get(this.redis.key('agent-spend', sessionId, periodStart));
      return new Decimal(c ?? '0').div(100).toString();
    });
  }
  async settleSpend(sessionId: string, periodStart: number, entryId: string, amount: string) {
    return this.redis.guard(async () => {
      await this.redis.run(SETTLE_SPEND, this.spendKeys(sessionId, periodStart), [entryId, cents(amount, Decimal.ROUND_UP)]);
    });
  }
  async addSpend(sessionId: string, periodStart: number, amount: string, cap: string, ttlMs: number, entryId = '') {
    return this.redis.guard(async () => {
      // The cap rounds down and the amount up, so cents never let an order slip past a cap.
      const keys = this.spendKeys(sessionId, periodStart);
      const args = [cents(amount, Decimal.ROUND_UP), cents(cap, Decimal.ROUND_DOWN), ttlMs, entryId];
      const [ok, spent] = (await this.redis.run(ADD_SPEND, keys, args)) as [number, string];
      return { ok: ok === 1, spent: new Decimal(spent).div(100).toString() };
    });
  }
}
