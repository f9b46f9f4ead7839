import type { ClaimResult, IdempotencyStore } from '../../execution/execution-stores.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';
import { json } from './redis-json.js';

/** KEYS[1] idempotency record; ARGV: fingerprint, ttl. Claims with SET NX, else returns the holder. */
const CLAIM = new LuaScript(`
local record = cjson.encode({fingerprint = ARGV[1], value = cjson.null})
if redis.call('SET', KEYS[1], record, 'NX', 'PX', ARGV[2]) then return false end
return redis.call('GET', KEYS[1])`);

/** KEYS[1] idempotency record; ARGV: fingerprint. Deletes the claim only if this fingerprint holds it. */
const RELEASE = new LuaScript(`
local current = redis.call('GET', KEYS[1])
if current and cjson.decode(current).fingerprint == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (key: string) => this.redis.key('idem', key);
  async claim(key: string, fingerprint: string, ttlMs: number): Promise<ClaimResult> {
    return this.redis.guard(async () => {
      const holder = (await this.redis.run(CLAIM, [this.k(key)], [fingerprint, ttlMs])) as string | null;
      if (holder === null) return { claimed: true };
      const record = JSON.parse(holder) as { fingerprint: string; value: string | null };
      return { claimed: false, fingerprint: record.fingerprint, value: record.value ?? null };
    });
  }
  async get(key: string) {
    return this.redis.guard(async () => {
      const record = json<{ fingerprint: string; value: string | null }>(await this.redis.client.get(this.k(key)));
      return record && { fingerprint: record.fingerprint, value: record.value ?? null };
    });
  }
  async complete(key: string, fingerprint: string, value: string, ttlMs: number) {
    return this.redis.guard(async () => {
      await this.redis.client.set(this.k(key), JSON.stringify({ fingerprint, value }), { PX: ttlMs });
    });
  }
  async release(key: string, fingerprint: string) {
    return this.redis.guard(async () => {
      await this.redis.run(RELEASE, [this.k(key)], [fingerprint]);
    });
  }
}
