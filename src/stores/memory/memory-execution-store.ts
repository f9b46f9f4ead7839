import type { ExecutionStore } from '../../execution/execution-stores.js';
import { awaitsReconciler, type Execution } from '../../execution/execution-types.js';
import { collectPage, executionMatches, isAfter, newestFirst, type ListQuery } from '../../execution/record-listing.js';

export class MemoryExecutionStore implements ExecutionStore {
  private readonly executions = new Map<string, Execution>();
  private readonly byReference = new Map<string, string>();
  async create(e: Execution) {
    this.executions.set(e.id, structuredClone(e));
    this.byReference.set(`${e.accountId}|${e.referenceId}`, e.id);
  }
  async get(id: string) {
    const e = this.executions.get(id);
    return e && structuredClone(e);
  }
  async update(e: Execution) {
    this.executions.set(e.id, structuredClone(e));
  }
  async findByReference(accountId: string, referenceId: string) {
    const id = this.byReference.get(`${accountId}|${referenceId}`);
    return id ? this.get(id) : undefined;
  }
  async listOpen(limit: number) {
    return [...this.executions.values()]
      .filter((e) => awaitsReconciler(e.state))
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }
  async listResting(limit: number) {
    return [...this.executions.values()]
      .filter((e) => e.order?.resting)
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }
  async findByClientOrderId(clientOrderId: string) {
    const e = [...this.executions.values()].find((x) => x.order?.clientOrderId === clientOrderId);
    return e && structuredClone(e);
  }
  async list(accountId: string, q: ListQuery) {
    const mine = [...this.executions.values()].filter((r) => r.accountId === accountId).sort(newestFirst);
    const page = await collectPage(
      async (after, size) => mine.filter((r) => isAfter(r, after)).slice(0, size),
      (r) => executionMatches(r, q),
      q,
    );
    return page.map((r) => structuredClone(r));
  }
}
