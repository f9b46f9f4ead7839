import type { Logger } from 'pino';
import type { ExecutionControls } from '../controls/execution-controls.js';
import type { Clock } from '../domain/clock.js';
import type { GatewayEvents } from '../events/gateway-events.js';
import type { MarketReader } from '../market-data/market-reader.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { AgentSessionStore, ApprovalStore, ExecutionStore, IdempotencyStore } from './execution-stores.js';
import type { IdentityStore } from '../auth/identity-store.js';
import type { SnapshotCache } from '../market-data/snapshot-cache.js';
import type { AuditTrail } from './audit-trail.js';
import type { Ledger } from './ledger.js';
import type { ExecutionVenue } from './venues/execution-venue.js';
import type { WriteDurability } from './write-durability.js';
import type { VenueReadinessCache } from './venue-readiness.js';

/** What the execution services share, built once at start-up. */
export interface ExecutionDeps {
  clock: Clock;
  logger: Logger;
  protocols: ProtocolRegistry;
  controls: ExecutionControls;
  reader: MarketReader;
  cache: SnapshotCache;
  venues: ReadonlyMap<string, ExecutionVenue>;
  /** Whether each routed venue's signer or keys are loaded and authorised (asked of the venue now and then). */
  venueReadiness: VenueReadinessCache;
  identities: IdentityStore;
  ledger: Ledger;
  idempotency: IdempotencyStore;
  approvals: ApprovalStore;
  executions: ExecutionStore;
  agentSessions: AgentSessionStore;
  audit: AuditTrail;
  events: GatewayEvents;
  /** One request's store writes made durable together before it answers (SQLite group commit). */
  durability: WriteDurability;
}

/** How long a preview's quote holds. */
export const PREVIEW_TTL_MS = 60_000;
/** How long an approval may wait for its decision and its submission. */
export const APPROVAL_TTL_MS = 5 * 60_000;
/**
 * How long a preview is kept after its quote expires, so a late submission hears "expired at …"
 * rather than "never previewed", and an approval given while it was fresh can still use its bound.
 */
export const PREVIEW_RECORD_TTL_MS = PREVIEW_TTL_MS + APPROVAL_TTL_MS;
/** How far the market may move against a previewed order before an approved submission of it is refused (1%). */
export const APPROVED_PRICE_BOUND = '0.01';
/** How long an execution's referenceId stays claimed. */
export const EXECUTION_CLAIM_TTL_MS = 30 * 24 * 3_600_000;
