import type { Account, ApiKeyRecord } from '../../auth/identity.js';
import type { IdentityStore } from '../../auth/identity-store.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';
import { COMPARE_AND_SET_FIELD } from './redis-scripts.js';

/** KEYS: keys hash, by-hash hash; ARGV: id, record JSON, sha256. Replaces a key and moves its hash index entry atomically. */
const PUT_KEY = new LuaScript(`
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local oldSha = cjson.decode(old).sha256
  if oldSha ~= ARGV[3] and redis.call('HGET', KEYS[2], oldSha) == ARGV[1] then redis.call('HDEL', KEYS[2], oldSha) end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
return 1`);

/** KEYS: keys hash, by-hash hash; ARGV[1]: sha256. One round trip from a presented key's digest to its record. */
const FIND_BY_HASH = new LuaScript(`
local id = redis.call('HGET', KEYS[2], ARGV[1])
if not id then return false end
return redis.call('HGET', KEYS[1], id)`);

const MAX_ATTEMPTS = 5;

/**
 * Accounts and API keys in Redis, shared by every replica and the keys CLI: hashes
 * `identity:account` and `identity:key` (id → JSON) and `identity:key-by-hash` (sha256 → key
 * id). Nothing is cached locally, so a revocation applies on the very next request anywhere.
 */
export class RedisIdentityStore implements IdentityStore {
  private readonly accounts: string;
  private readonly keys: string;
  private readonly byHash: string;

  constructor(private readonly redis: RedisConnection) {
    this.accounts = redis.key('identity', 'account');
    this.keys = redis.key('identity', 'key');
    this.byHash = redis.key('identity', 'key-by-hash');
  }

  async getAccount(id: string): Promise<Account | undefined> {
    return parse<Account>(await this.redis.guard(() => this.redis.client.hGet(this.accounts, id)));
  }

  async putAccount(account: Account): Promise<void> {
    await this.redis.guard(() => this.redis.client.hSet(this.accounts, account.id, JSON.stringify(account)));
  }

  async createAccount(account: Account): Promise<boolean> {
    return (await this.redis.guard(() => this.redis.client.hSetNX(this.accounts, account.id, JSON.stringify(account)))) === 1;
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.redis.guard(() => this.redis.client.hVals(this.accounts))).map((v) => JSON.parse(v) as Account);
  }

  async findKeyByHash(sha256: string): Promise<ApiKeyRecord | undefined> {
    return parse<ApiKeyRecord>((await this.redis.guard(() => this.redis.run(FIND_BY_HASH, [this.keys, this.byHash], [sha256]))) as string | null);
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    return parse<ApiKeyRecord>(await this.redis.guard(() => this.redis.client.hGet(this.keys, id)));
  }

  async putKey(key: ApiKeyRecord): Promise<void> {
    await this.redis.guard(() => this.redis.run(PUT_KEY, [this.keys, this.byHash], [key.id, JSON.stringify(key), key.sha256]));
  }

  async listKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    const all = (await this.redis.guard(() => this.redis.client.hVals(this.keys))).map((v) => JSON.parse(v) as ApiKeyRecord);
    return all.filter((k) => accountId === undefined || k.accountId === accountId);
  }

  async revokeKey(id: string, at: string): Promise<ApiKeyRecord | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const raw = await this.redis.guard(() => this.redis.client.hGet(this.keys, id));
      if (raw == null) return undefined;
      const key = JSON.parse(raw) as ApiKeyRecord;
      const revoked: ApiKeyRecord = { ...key, revoked: true, revokedAt: key.revokedAt ?? at };
      if ((await this.redis.guard(() => this.redis.run(COMPARE_AND_SET_FIELD, [this.keys], [id, raw, JSON.stringify(revoked)]))) === 1) return revoked;
    }
    throw new Error(`key ${id}: concurrent writers kept conflicting`);
  }
}

function parse<T>(raw: string | null | undefined): T | undefined {
  return raw == null ? undefined : (JSON.parse(raw) as T);
}
