import type { WalletSessions } from '../auth/wallet-sessions.js';
import { AccountRecords } from './account-records.js';
import { AgentSessions } from './agent-sessions.js';
import { Approvals } from './approvals.js';
import type { AuditTrail } from './audit-trail.js';
import type { ExecutionDeps } from './execution-deps.js';
import type { StandingContext } from './gate-context.js';
import type { GateVerdict } from './gate-verdict.js';
import { standingBlocks } from './gates.js';
import { Executions } from './executions.js';
import { ExecutionReconciler } from './execution-reconciler.js';
import type { Ledger } from './ledger.js';
import { OrderFollower } from './order-follower.js';
import { Previews } from './previews.js';
import { VenueAccounts } from './venue-accounts.js';

/** The execution plane's services, as resolvers see them. */
export interface ExecutionServices {
  previews: Previews;
  approvals: Approvals;
  executions: Executions;
  /** Finishes executions left open by an outage, a crash or an unconfirmed venue. */
  reconciler: ExecutionReconciler;
  /** Keeps orders resting at real venues in step with them (where ingestion runs). */
  orders: OrderFollower;
  agentSessions: AgentSessions;
  audit: AuditTrail;
  wallets: WalletSessions;
  /** The paper ledger (the portfolio reads balances through it). */
  ledger: Ledger;
  /** The account's executions and approvals, listed a page at a time. */
  records: AccountRecords;
  /** Real venues' accounts (positions, balances), shown beside the paper ledger. */
  venueAccounts: VenueAccounts;
  gates: {
    /** What blocks every instruction of a protocol action now, in gate order (capabilities). */
    standingBlocks(input: Omit<StandingContext, 'deps'>): Promise<GateVerdict[]>;
  };
}

export function createExecutionServices(deps: ExecutionDeps, wallets: WalletSessions): ExecutionServices {
  const previews = new Previews(deps);
  const agentSessions = new AgentSessions(deps);
  const reconciler = new ExecutionReconciler(deps);
  return {
    previews,
    approvals: new Approvals(deps, previews, wallets),
    executions: new Executions(deps, previews, agentSessions, reconciler),
    reconciler,
    orders: new OrderFollower(deps),
    agentSessions,
    audit: deps.audit,
    wallets,
    ledger: deps.ledger,
    records: new AccountRecords(deps),
    venueAccounts: new VenueAccounts(deps),
    gates: { standingBlocks: (input) => standingBlocks({ deps, ...input }) },
  };
}
