import { auditHash, GENESIS_HASH } from '../../execution/audit-chain.js';
import type { AuditStore } from '../../execution/execution-stores.js';
import type { AuditEntry } from '../../execution/execution-types.js';

export class MemoryAuditStore implements AuditStore {
  private readonly chains = new Map<string, AuditEntry[]>();
  async append(accountId: string, entry: Omit<AuditEntry, 'seq' | 'prevHash' | 'hash' | 'accountId'>) {
    let chain = this.chains.get(accountId);
    if (!chain) this.chains.set(accountId, (chain = []));
    const prev = chain[chain.length - 1];
    const body = { ...entry, accountId, seq: (prev?.seq ?? 0) + 1, prevHash: prev?.hash ?? GENESIS_HASH };
    const full: AuditEntry = { ...body, hash: auditHash(body) };
    chain.push(full);
    return structuredClone(full);
  }
  async list(accountId: string, limit: number, beforeSeq?: number) {
    return (this.chains.get(accountId) ?? [])
      .filter((e) => beforeSeq === undefined || e.seq < beforeSeq)
      .slice(-limit)
      .map((x) => structuredClone(x));
  }
}
