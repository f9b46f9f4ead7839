import type { ExecutionStores } from '../../execution/execution-stores.js';
import { RedisAgentSessionStore } from './redis-agent-session-store.js';
import { RedisApprovalStore } from './redis-approval-store.js';
import { RedisAuditStore } from './redis-audit-store.js';
import type { RedisConnection } from './redis-connection.js';
import { RedisExecutionStore } from './redis-execution-store.js';
import { RedisIdempotencyStore } from './redis-idempotency-store.js';
import { RedisLedgerStore } from './redis-ledger-store.js';
import { RedisWalletSessionStore } from './redis-wallet-session-store.js';

/**
 * The execution plane's stores on the shared Redis. Every call goes through `guard`: an
 * unreachable Redis is a clean 503, which the execution path turns into POLICY_UNAVAILABLE (fail closed).
 */
export function redisExecutionStores(redis: RedisConnection): ExecutionStores {
  return {
    idempotency: new RedisIdempotencyStore(redis),
    approvals: new RedisApprovalStore(redis),
    executions: new RedisExecutionStore(redis),
    agentSessions: new RedisAgentSessionStore(redis),
    walletSessions: new RedisWalletSessionStore(redis),
    ledger: new RedisLedgerStore(redis),
    audit: new RedisAuditStore(redis),
  };
}
