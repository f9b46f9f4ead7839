import type { ExecutionStore } from '../../execution/execution-stores.js';
import type { Execution } from '../../execution/execution-types.js';
import type { RedisConnection } from './redis-connection.js';
import { json, RECORD_TTL_MS } from './redis-json.js';
import { collectPage, executionMatches, type ListQuery } from '../../execution/record-listing.js';
import { RedisListingIndex } from './redis-listing.js';

export class RedisExecutionStore implements ExecutionStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (id: string) => this.redis.key('execution', id);
  private ref = (accountId: string, referenceId: string) => this.redis.key('execution-ref', accountId, referenceId);
  private get index() {
    return new RedisListingIndex(this.redis, 'executions', this.k);
  }
  async create(e: Execution) {
    return this.redis.guard(async () => {
      const multi = this.redis.client
        .multi()
        .set(this.k(e.id), JSON.stringify(e), { PX: RECORD_TTL_MS })
        .set(this.ref(e.accountId, e.referenceId), e.id, { PX: RECORD_TTL_MS });
      await this.index.add(multi, e.accountId, e.id, e.createdAt).exec();
    });
  }
  async get(id: string) {
    return this.redis.guard(async () => {
      return json<Execution>(await this.redis.client.get(this.k(id)));
    });
  }
  async update(e: Execution) {
    return this.redis.guard(async () => {
      await this.redis.client.set(this.k(e.id), JSON.stringify(e), { KEEPTTL: true });
    });
  }
  async findByReference(accountId: string, referenceId: string) {
    return this.redis.guard(async () => {
      const id = await this.redis.client.get(this.ref(accountId, referenceId));
      return id ? this.get(id) : undefined;
    });
  }
  async list(accountId: string, q: ListQuery) {
    return this.redis.guard(() =>
      collectPage<Execution>(
        (after, size) => this.index.batch(accountId, after, size),
        (e) => executionMatches(e, q),
        q,
      ),
    );
  }
}
