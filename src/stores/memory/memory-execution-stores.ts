import type { ExecutionStores } from '../../execution/execution-stores.js';
import { MemoryAgentSessionStore } from './memory-agent-session-store.js';
import { MemoryApprovalStore } from './memory-approval-store.js';
import { MemoryAuditStore } from './memory-audit-store.js';
import { MemoryExecutionStore } from './memory-execution-store.js';
import { MemoryIdempotencyStore } from './memory-idempotency-store.js';
import { MemoryLedgerStore } from './memory-ledger-store.js';
import { MemoryWalletSessionStore } from './memory-wallet-session-store.js';

/** In-process execution stores (tests); expiries follow `now` (the app clock, so tests can move time). */
export function memoryExecutionStores(now: () => number = Date.now): ExecutionStores {
  return {
    idempotency: new MemoryIdempotencyStore(now),
    approvals: new MemoryApprovalStore(),
    executions: new MemoryExecutionStore(),
    agentSessions: new MemoryAgentSessionStore(now),
    walletSessions: new MemoryWalletSessionStore(now),
    ledger: new MemoryLedgerStore(),
    audit: new MemoryAuditStore(),
  };
}
