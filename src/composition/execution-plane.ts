import type { Logger } from 'pino';
import { Authenticator } from '../auth/authenticator.js';
import { ApiKeys } from '../auth/api-keys.js';
import { WalletSessions } from '../auth/wallet-sessions.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { StartFiles } from '../config/start-files.js';
import { applyControlsFile } from '../controls/controls-file.js';
import { ExecutionControls } from '../controls/execution-controls.js';
import { OperatorAccess } from '../controls/operator-access.js';
import { SharedControls } from '../controls/shared-controls.js';
import type { Clock } from '../domain/clock.js';
import type { GatewayEvents } from '../events/gateway-events.js';
import { AuditTrail } from '../execution/audit-trail.js';
import { createExecutionServices, type ExecutionServices } from '../execution/execution-services.js';
import { Ledger } from '../execution/ledger.js';
import type { ExecutionVenue } from '../execution/venues/execution-venue.js';
import type { MarketDirectory } from '../market-data/market-directory.js';
import type { MarketReader } from '../market-data/market-reader.js';
import { VenueReadinessCache } from '../execution/venue-readiness.js';
import type { ConfiguredVenue } from '../venues/venue-module.js';
import { UNOBSERVED } from '../sources/upstream-observer.js';
import { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { GatewayStores } from '../stores/gateway-stores.js';

/** Identity, authority and execution: who may do what, and the venues orders go to. */
export interface ExecutionPlane {
  protocols: ProtocolRegistry;
  controls: ExecutionControls;
  authenticator: Authenticator;
  keys: ApiKeys;
  operator: OperatorAccess;
  sharedControls: SharedControls;
  execution: ExecutionServices;
}

export function executionPlane(
  config: GatewayConfig,
  deps: {
    stores: GatewayStores;
    events: GatewayEvents;
    reader: MarketReader;
    directory: MarketDirectory;
    /** The venues the configuration chose: their protocols and execution venues. */
    venues: readonly ConfiguredVenue[];
    clock: Clock;
    logger: Logger;
    controlsFile: StartFiles['controls'];
    /** Tests: wrap the paper venues to inject faults. */
    wrapVenues?: (venues: Map<string, ExecutionVenue>) => Map<string, ExecutionVenue>;
  },
): ExecutionPlane {
  const { stores, events, reader, directory, clock, logger } = deps;
  const protocols = new ProtocolRegistry(deps.venues.flatMap((v) => v.protocols));
  const controls = new ExecutionControls();
  if (deps.controlsFile) applyControlsFile(deps.controlsFile, controls, protocols, new Date(clock.now()).toISOString());
  const wallets = new WalletSessions(stores.execution.walletSessions, stores.identities, clock, { domain: config.siweDomain });
  const venues = new Map(deps.venues.map((v) => [v.id, v.createExecutionVenue({ clock, logger, directory, upstream: UNOBSERVED })]));
  const execution = createExecutionServices(
    {
      clock,
      logger,
      protocols,
      controls,
      reader,
      cache: stores.cache,
      venues: deps.wrapVenues?.(venues) ?? venues,
      venueReadiness: new VenueReadinessCache(() => clock.now()),
      identities: stores.identities,
      ...stores.execution,
      ledger: new Ledger(stores.execution.ledger),
      audit: new AuditTrail(stores.execution.audit, clock, logger),
      events,
      durability: stores.durability,
    },
    wallets,
  );
  return {
    protocols,
    controls,
    authenticator: new Authenticator(stores.identities, (token) => wallets.sessionFor(token)),
    keys: new ApiKeys(stores.identities, clock),
    operator: new OperatorAccess(config.operatorToken),
    sharedControls: new SharedControls(controls, protocols, stores.controlsChannel, logger),
    execution,
  };
}
