import type { ApprovalStore } from '../../execution/execution-stores.js';
import type { Approval } from '../../execution/execution-types.js';
import { collectPage, approvalMatches, isAfter, newestFirst, type ListQuery } from '../../execution/record-listing.js';

export class MemoryApprovalStore implements ApprovalStore {
  private readonly approvals = new Map<string, Approval>();
  async create(a: Approval) {
    this.approvals.set(a.id, structuredClone(a));
  }
  async get(id: string) {
    const a = this.approvals.get(id);
    return a && structuredClone(a);
  }
  async decide(id: string, to: 'approved' | 'rejected', now: number) {
    const a = this.approvals.get(id);
    if (!a || a.state !== 'pending' || a.expiresAt <= now) return undefined;
    a.state = to;
    a.decidedAt = now;
    return structuredClone(a);
  }
  async consume(id: string, hash: string, executionId: string, now: number) {
    const a = this.approvals.get(id);
    if (!a) return 'not_found' as const;
    if (a.state === 'consumed') return 'already_consumed' as const;
    if (a.state !== 'approved') return 'not_approved' as const;
    if (a.expiresAt <= now) return 'expired' as const;
    if (a.instructionHash !== hash) return 'hash_mismatch' as const;
    a.state = 'consumed';
    a.consumedAt = now;
    a.executionId = executionId;
    return 'consumed' as const;
  }
  async release(id: string, executionId: string) {
    const a = this.approvals.get(id);
    if (a?.state !== 'consumed' || a.executionId !== executionId) return false;
    Object.assign(a, { state: 'approved', consumedAt: null, executionId: null });
    return true;
  }
  async list(accountId: string, q: ListQuery) {
    const mine = [...this.approvals.values()].filter((r) => r.accountId === accountId).sort(newestFirst);
    const page = await collectPage(
      async (after, size) => mine.filter((r) => isAfter(r, after)).slice(0, size),
      (r) => approvalMatches(r, q),
      q,
    );
    return page.map((r) => structuredClone(r));
  }
}
