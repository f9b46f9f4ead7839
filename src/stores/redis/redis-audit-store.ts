import { auditHash, GENESIS_HASH } from '../../execution/audit-chain.js';
import type { AuditStore } from '../../execution/execution-stores.js';
import type { AuditEntry } from '../../execution/execution-types.js';
import { LuaScript, type RedisConnection } from './redis-connection.js';

/** KEYS[1] chain list, KEYS[2] head hash; ARGV: expected seq, entry json, new hash. Appends only onto the expected head. */
const APPEND_AUDIT = new LuaScript(`
local seq = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
if seq ~= tonumber(ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], 'seq', seq + 1, 'hash', ARGV[3])
return 1`);

/**
 * The audit chain in Redis: the entry hash is SHA-256 computed here over canonical JSON, and the
 * append is a compare-and-append on the chain head, retried when another replica appended first.
 */
export class RedisAuditStore implements AuditStore {
  constructor(private readonly redis: RedisConnection) {}
  private list_ = (accountId: string) => this.redis.key('audit', accountId);
  private head = (accountId: string) => this.redis.key('audit-head', accountId);
  async append(accountId: string, entry: Omit<AuditEntry, 'seq' | 'prevHash' | 'hash' | 'accountId'>): Promise<AuditEntry> {
    return this.redis.guard(async () => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const head = await this.redis.client.hGetAll(this.head(accountId));
        const seq = Number(head.seq ?? 0);
        const body = { ...entry, accountId, seq: seq + 1, prevHash: head.hash ?? GENESIS_HASH };
        const full: AuditEntry = { ...body, hash: auditHash(body) };
        if ((await this.redis.run(APPEND_AUDIT, [this.list_(accountId), this.head(accountId)], [seq, JSON.stringify(full), full.hash])) === 1) return full;
      }
      throw new Error(`audit chain of ${accountId} is too contended`);
    });
  }
  async list(accountId: string, limit: number, beforeSeq?: number) {
    return this.redis.guard(async () => {
      // The chain is append-only from seq 1: seq s sits at index s - 1.
      if (beforeSeq === undefined) return (await this.redis.client.lRange(this.list_(accountId), -limit, -1)).map((e) => JSON.parse(e) as AuditEntry);
      const end = beforeSeq - 2;
      if (end < 0) return [];
      return (await this.redis.client.lRange(this.list_(accountId), Math.max(0, end - limit + 1), end)).map((e) => JSON.parse(e) as AuditEntry);
    });
  }
}
