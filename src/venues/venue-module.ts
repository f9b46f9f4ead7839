import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { ExecutionVenue } from '../execution/venues/execution-venue.js';
import type { MarketDirectory } from '../market-data/market-directory.js';
import type { ProtocolDefinition, ProtocolKind } from '../protocols/protocol.js';
import type { MarketDataSource, SourceFault } from '../sources/market-data-source.js';
import type { UpstreamObserver } from '../sources/upstream-observer.js';

/** How a venue's data reaches the gateway: simulated in-process, from the real venue, or replayed from recordings. */
export type VenueMode = 'simulated' | 'real' | 'replay';

/** The environment a venue reads its variables from (its own names, e.g. HYPERLIQUID_NETWORK). */
export type VenueEnv = Readonly<Record<string, string | undefined>>;

/** Settings every venue may use. */
export interface CommonVenueSettings {
  /** GATEWAY_SIM_MARKETS: how many markets the simulators list, across the four of them. */
  simulatedMarkets: number;
  /** GATEWAY_SIM_FAULTS: a simulated venue started degraded or down. */
  simulatedFaults: Readonly<Record<string, SourceFault>>;
  /** Venue id → the recordings folder its local replay serves (GATEWAY_REPLAY): the venue is then a replay, not the real one. */
  replayed?: Readonly<Record<string, string>>;
}

/** What a venue's parts are built with, once, at start. */
export interface VenueBuildDeps {
  clock: Clock;
  logger: Logger;
  /** The listed markets of every venue (a venue's execution finds its markets there as they are listed and delisted). */
  directory: MarketDirectory;
  /** Where a real venue's requests, outcomes and reconnects are counted (/metrics). */
  upstream: UpstreamObserver;
}

/** A venue as its configuration chose it: its protocol, its market-data source and its execution venue. */
export interface ConfiguredVenue {
  /** Its protocol id, which is also its source id. */
  readonly id: string;
  readonly kind: ProtocolKind;
  readonly mode: VenueMode;
  /** What /api/v1/public/status tells of it (network, upstream host, budget): never a credential. */
  readonly description: Readonly<Record<string, string | number>>;
  /** Its protocols: the one it serves, and any hidden one beside it. */
  readonly protocols: readonly ProtocolDefinition[];
  createSource(deps: VenueBuildDeps): MarketDataSource;
  createExecutionVenue(deps: VenueBuildDeps): ExecutionVenue;
}

/**
 * One venue, one folder (src/venues/<id>/): its configuration, its market-data source, its
 * execution venue, its protocol and its catalogue. The registry (venue-registry.ts) lists them;
 * the environment chooses which run.
 */
export interface VenueModule {
  readonly id: string;
  readonly kind: ProtocolKind;
  /** Simulated modules always configure; a real one only when its variables say so. */
  readonly mode: 'simulated' | 'real';
  /** Its variables, as the README's table lists them. */
  readonly variables: readonly string[];
  /**
   * The venue as the environment configures it, or undefined when it is not configured (a real
   * venue without its URL or keys). A variable that is set wrong throws naming it.
   */
  configure(env: VenueEnv, common: CommonVenueSettings): ConfiguredVenue | undefined;
}

/**
 * The protocol of a real venue whose execution is paper: public, certified when the operator turns
 * the venue on (its variables), one action, place_order.
 */
export function realVenueProtocol(id: string, kind: ProtocolKind, name: string): ProtocolDefinition {
  const certified = { visibility: 'public', certification: 'certified', certifiedAt: null } as const;
  return { id, name, kind, sourceId: id, ...certified, actions: [{ id: 'place_order', name: 'Place order', ...certified }] };
}
