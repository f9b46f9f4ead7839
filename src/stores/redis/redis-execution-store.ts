import type { ExecutionStore } from '../../execution/execution-stores.js';
import { awaitsReconciler, type Execution } from '../../execution/execution-types.js';
import type { RedisConnection } from './redis-connection.js';
import { json, RECORD_TTL_MS } from './redis-json.js';
import { collectPage, executionMatches, type ListQuery } from '../../execution/record-listing.js';
import { RedisListingIndex } from './redis-listing.js';

export class RedisExecutionStore implements ExecutionStore {
  constructor(private readonly redis: RedisConnection) {}
  private k = (id: string) => this.redis.key('execution', id);
  private ref = (accountId: string, referenceId: string) => this.redis.key('execution-ref', accountId, referenceId);
  /** Ids of executions awaiting the reconciler (every replica's). */
  private open = () => this.redis.key('executions-open');
  /** Ids of executions whose order rests at a real venue. */
  private resting = () => this.redis.key('executions-resting');
  private cloid = (clientOrderId: string) => this.redis.key('execution-cloid', clientOrderId);
  private get index() {
    return new RedisListingIndex(this.redis, 'executions', this.k);
  }
  async create(e: Execution) {
    return this.redis.guard(async () => {
      const multi = this.redis.client
        .multi()
        .set(this.k(e.id), JSON.stringify(e), { PX: RECORD_TTL_MS })
        .set(this.ref(e.accountId, e.referenceId), e.id, { PX: RECORD_TTL_MS })
        .sAdd(this.open(), e.id);
      await this.index.add(multi, e.accountId, e.id, e.createdAt).exec();
    });
  }
  async listOpen(limit: number) {
    return this.members(this.open(), limit);
  }
  async listResting(limit: number) {
    return this.members(this.resting(), limit);
  }
  async findByClientOrderId(clientOrderId: string) {
    return this.redis.guard(async () => {
      const id = await this.redis.client.get(this.cloid(clientOrderId));
      return id ? this.get(id) : undefined;
    });
  }
  private members(set: string, limit: number) {
    return this.redis.guard(async () => {
      const ids = await this.redis.client.sRandMemberCount(set, limit);
      if (ids.length === 0) return [];
      const raw = await this.redis.client.mGet(ids.map((id) => this.k(id)));
      const gone = ids.filter((_, i) => raw[i] === null);
      if (gone.length > 0) await this.redis.client.sRem(set, gone);
      return raw.flatMap((r) => (r ? [JSON.parse(r) as Execution] : []));
    });
  }
  async get(id: string) {
    return this.redis.guard(async () => {
      return json<Execution>(await this.redis.client.get(this.k(id)));
    });
  }
  async update(e: Execution) {
    return this.redis.guard(async () => {
      const write = this.redis.client.multi().set(this.k(e.id), JSON.stringify(e), { KEEPTTL: true });
      if (awaitsReconciler(e.state)) write.sAdd(this.open(), e.id);
      else write.sRem(this.open(), e.id);
      if (e.order?.resting) write.sAdd(this.resting(), e.id);
      else write.sRem(this.resting(), e.id);
      if (e.order) write.set(this.cloid(e.order.clientOrderId), e.id, { PX: RECORD_TTL_MS });
      await write.exec();
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
