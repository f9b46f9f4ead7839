import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { AuditStore } from './execution-stores.js';
import { verifyAuditChain } from './audit-chain.js';
import type { AuditEntry } from './execution-types.js';

/** Writes previews, approval decisions, executions and refusals to the account's audit chain. */
export class AuditTrail {
  constructor(
    private readonly store: AuditStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async record(accountId: string, type: string, referenceId: string | null, details: Record<string, unknown>): Promise<void> {
    try {
      await this.store.append(accountId, { at: new Date(this.clock.now()).toISOString(), type, referenceId, details });
    } catch (err) {
      // The decision stands; a missing audit line is an operational alarm, not a client error.
      this.logger.error({ err, accountId, type, referenceId }, 'audit append failed');
    }
  }

  async read(accountId: string, limit: number, beforeSeq?: number): Promise<{ entries: AuditEntry[]; valid: boolean; brokenAt: number | null }> {
    const entries = await this.store.list(accountId, limit, beforeSeq);
    // A window that starts mid-chain verifies its own links; the first entry's prevHash is trusted.
    return { entries, ...verifyAuditChain(entries) };
  }
}
