import type { ApprovalStore } from '../../execution/execution-stores.js';
import type { Approval } from '../../execution/execution-types.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';
import { json, RECORD_TTL_MS } from './redis-json.js';
import { approvalMatches, collectPage, type ListQuery } from '../../execution/record-listing.js';
import { RedisListingIndex } from './redis-listing.js';

/** KEYS[1] approval; ARGV: to-state, now. pending and unexpired → decided, else nil. */
const DECIDE = new LuaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local a = cjson.decode(raw)
if a.state ~= 'pending' or a.expiresAt <= tonumber(ARGV[2]) then return false end
a.state = ARGV[1]
a.decidedAt = tonumber(ARGV[2])
local out = cjson.encode(a)
redis.call('SET', KEYS[1], out, 'KEEPTTL')
return out`);

/** KEYS[1] approval; ARGV: instruction hash, execution id, now. The one-time consumption. */
const CONSUME = new LuaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 'not_found' end
local a = cjson.decode(raw)
if a.state == 'consumed' then return 'already_consumed' end
if a.state ~= 'approved' then return 'not_approved' end
if a.expiresAt <= tonumber(ARGV[3]) then return 'expired' end
if a.instructionHash ~= ARGV[1] then return 'hash_mismatch' end
a.state = 'consumed'
a.consumedAt = tonumber(ARGV[3])
a.executionId = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(a), 'KEEPTTL')
return 'consumed'`);

/** KEYS[1] approval; ARGV: execution id. Consumed by that execution → approved again. */
const RELEASE = new LuaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local a = cjson.decode(raw)
if a.state ~= 'consumed' or a.executionId ~= ARGV[1] then return 0 end
a.state = 'approved'
a.consumedAt = cjson.null
a.executionId = cjson.null
redis.call('SET', KEYS[1], cjson.encode(a), 'KEEPTTL')
return 1`);

export class RedisApprovalStore implements ApprovalStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (id: string) => this.redis.key('approval', id);
  private get index() {
    return new RedisListingIndex(this.redis, 'approvals', this.k);
  }
  async create(a: Approval) {
    return this.redis.guard(async () => {
      const multi = this.redis.client.multi().set(this.k(a.id), JSON.stringify(a), { PX: RECORD_TTL_MS });
      await this.index.add(multi, a.accountId, a.id, a.createdAt).exec();
    });
  }
  async get(id: string) {
    return this.redis.guard(async () => {
      return json<Approval>(await this.redis.client.get(this.k(id)));
    });
  }
  async decide(id: string, to: 'approved' | 'rejected', now: number) {
    return this.redis.guard(async () => {
      return json<Approval>(((await this.redis.run(DECIDE, [this.k(id)], [to, now])) as string | null) ?? null);
    });
  }
  async consume(id: string, hash: string, executionId: string, now: number) {
    return this.redis.guard(async () => {
      return (await this.redis.run(CONSUME, [this.k(id)], [hash, executionId, now])) as Awaited<ReturnType<ApprovalStore['consume']>>;
    });
  }
  async release(id: string, executionId: string) {
    return this.redis.guard(async () => (await this.redis.run(RELEASE, [this.k(id)], [executionId])) === 1);
  }
  async list(accountId: string, q: ListQuery) {
    return this.redis.guard(() =>
      collectPage<Approval>(
        (after, size) => this.index.batch(accountId, after, size),
        (a) => approvalMatches(a, q),
        q,
      ),
    );
  }
}
