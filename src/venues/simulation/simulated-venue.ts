import type { MarketDefinition } from '../../domain/market.js';
import type { ExecutionVenue } from '../../execution/venues/execution-venue.js';
import type { ActionDefinition, ProtocolDefinition, ProtocolKind } from '../../protocols/protocol.js';
import type { VenueModule } from '../venue-module.js';
import { simulatedCatalogue } from './simulated-catalogue.js';
import { SimulatedSource } from './simulated-source.js';

/** When the paper venues' actions were certified (the embedded default's history). */
const CERTIFIED_SINCE = '2026-10-01T00:00:00.000Z';

/** An action of a paper venue, certified since the embedded default's start when it is certified. */
export function paperAction(
  id: string,
  name: string,
  certification: ActionDefinition['certification'],
  visibility: ActionDefinition['visibility'] = 'public',
): ActionDefinition {
  return { id, name, visibility, certification, certifiedAt: certification === 'certified' ? CERTIFIED_SINCE : null };
}

/** A public, certified protocol of a paper venue. */
export function paperProtocol(p: Pick<ProtocolDefinition, 'id' | 'name' | 'kind' | 'sourceId' | 'actions'> & Partial<ProtocolDefinition>): ProtocolDefinition {
  return { visibility: 'public', certification: 'certified', certifiedAt: CERTIFIED_SINCE, ...p };
}

export interface SimulatedVenueDefinition {
  id: string;
  kind: ProtocolKind;
  /** Its protocol first, then any hidden one beside it. */
  protocols: readonly ProtocolDefinition[];
  pollIntervalMs: number;
  /** Its paper execution venue, over its markets as the directory lists them. */
  executionVenue(markets: () => readonly MarketDefinition[]): ExecutionVenue;
}

/**
 * A venue simulated in-process (the embedded default): its listings from the simulators'
 * deterministic catalogue (GATEWAY_SIM_MARKETS across the four), started with its
 * GATEWAY_SIM_FAULTS fault, needing no network and no key.
 */
export function simulatedVenueModule(def: SimulatedVenueDefinition): VenueModule {
  return {
    id: def.id,
    kind: def.kind,
    mode: 'simulated',
    variables: ['GATEWAY_SIM_MARKETS', 'GATEWAY_SIM_FAULTS'],
    configure: (_env, common) => ({
      id: def.id,
      kind: def.kind,
      mode: 'simulated',
      description: { upstream: 'in-process simulator' },
      protocols: def.protocols,
      createSource: () => {
        const listed = simulatedCatalogue(common.simulatedMarkets).filter((m) => m.sourceId === def.id);
        const source = new SimulatedSource(def.id, listed, def.pollIntervalMs);
        source.setFault(common.simulatedFaults[def.id] ?? 'none');
        return source;
      },
      createExecutionVenue: ({ directory }) => def.executionVenue(() => directory.ofProtocol(def.id)),
    }),
  };
}
