import { Decimal } from '../../domain/decimal.js';
import type { AgentSessionStore } from '../../execution/execution-stores.js';
import type { AgentSession } from '../../execution/execution-types.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';
import { json } from './redis-json.js';

/**
 * KEYS[1] period counter in cents; ARGV: amount cents, cap cents, ttl. Adds unless it would pass
 * the cap. Cents keep Lua's double arithmetic exact up to 9e13 USD.
 */
const ADD_SPEND = new LuaScript(`
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount = tonumber(ARGV[1])
if spent + amount > tonumber(ARGV[2]) then return {0, tostring(spent)} end
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, tostring(total)}`);

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
  async addSpend(sessionId: string, periodStart: number, amount: string, cap: string, ttlMs: number) {
    return this.redis.guard(async () => {
      // The cap rounds down and the amount up, so cents never let an order slip past a cap.
      const key = this.redis.key('agent-spend', sessionId, periodStart);
      const [ok, spent] = (await this.redis.run(ADD_SPEND, [key], [cents(amount, Decimal.ROUND_UP), cents(cap, Decimal.ROUND_DOWN), ttlMs])) as [
        number,
        string,
      ];
      return { ok: ok === 1, spent: new Decimal(spent).div(100).toString() };
    });
  }
}
