import type { ListPosition } from '../../execution/record-listing.js';
import type { RedisConnection } from './redis-connection.js';
import { RECORD_TTL_MS } from './redis-json.js';

/**
 * An account's records indexed in a sorted set (score: creation time; equal times fall back to
 * the member, an id, in reverse order as the listing wants). Records past their TTL drop out of
 * a read; the index itself expires with the newest record.
 */
export class RedisListingIndex {
  constructor(
    private readonly redis: RedisConnection,
    private readonly name: string,
    private readonly recordKey: (id: string) => string,
  ) {}

  key = (accountId: string) => this.redis.key(this.name, accountId);

  /** Adds to a MULTI: the record's id under its creation time, and the index's lifetime. */
  add(multi: ReturnType<RedisConnection['client']['multi']>, accountId: string, id: string, createdAt: number) {
    return multi.zAdd(this.key(accountId), { score: createdAt, value: id }).pExpire(this.key(accountId), RECORD_TTL_MS);
  }

  /** Up to `size` records newest first, strictly after `after`. */
  async batch<T>(accountId: string, after: ListPosition | undefined, size: number): Promise<T[]> {
    const out: T[] = [];
    let offset = 0;
    for (;;) {
      const members = await this.redis.client.zRangeWithScores(this.key(accountId), after ? after.at : '+inf', '-inf', {
        BY: 'SCORE',
        REV: true,
        LIMIT: { offset, count: size },
      });
      offset += members.length;
      const ids = members.filter((m) => !after || m.score < after.at || m.value < after.id).map((m) => m.value);
      const raw = ids.length > 0 ? await this.redis.client.mGet(ids.map(this.recordKey)) : [];
      for (const r of raw) if (r !== null && out.length < size) out.push(JSON.parse(r) as T);
      if (out.length >= size || members.length < size) return out;
    }
  }
}
