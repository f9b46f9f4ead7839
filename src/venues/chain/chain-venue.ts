import type { MarketDefinition } from '../../domain/market.js';
import type { ExecutionVenue } from '../../execution/venues/execution-venue.js';
import type { ProtocolKind } from '../../protocols/protocol.js';
import type { VenueEnv, VenueModule } from '../venue-module.js';
import { chainName, type ChainSettings } from './chain-settings.js';
import { ChainSource, type ChainReader } from './chain-source.js';

export interface ChainVenueDefinition<S extends ChainSettings> {
  id: string;
  kind: ProtocolKind;
  /** Its protocol's name, before "(<chain> data, paper execution)". */
  name: string;
  /** Its certified actions: id and name. */
  actions: readonly (readonly [id: string, name: string])[];
  /** Its own variables (the shared ETH_RPC_URL and ETH_CHAIN_ID are added). */
  variables: readonly string[];
  settings(env: VenueEnv): S | undefined;
  reader(id: string, settings: S): ChainReader;
  /** Its paper execution venue, over its markets as the directory lists them. */
  executionVenue(markets: () => readonly MarketDefinition[]): ExecutionVenue;
}

/**
 * A venue read from a chain through the operator's JSON-RPC node (ChainSource), its protocol
 * certified when the operator turns it on (an RPC URL): the data are the chain's, the execution
 * paper. /api/v1/public/status names the node by its host only (a key in the URL's path, query or
 * user part never shows), the chain, and the request budget.
 */
export function chainVenueModule<S extends ChainSettings>(def: ChainVenueDefinition<S>): VenueModule {
  return {
    id: def.id,
    kind: def.kind,
    mode: 'real',
    variables: ['ETH_RPC_URL', 'ETH_CHAIN_ID', ...def.variables],
    configure(env) {
      const settings = def.settings(env);
      if (!settings) return undefined;
      const chain = chainName(settings.chainId);
      return {
        id: def.id,
        kind: def.kind,
        mode: 'real',
        description: { upstream: new URL(settings.rpcUrl).host, network: chain, chainId: settings.chainId, budgetPerMinute: settings.requestsPerMinute },
        protocols: [
          {
            id: def.id,
            name: `${def.name} (${chain} data, paper execution)`,
            kind: def.kind,
            sourceId: def.id,
            visibility: 'public',
            certification: 'certified',
            certifiedAt: null,
            actions: def.actions.map(([id, name]) => ({ id, name, visibility: 'public', certification: 'certified', certifiedAt: null })),
          },
        ],
        createSource: ({ upstream }) => new ChainSource(def.id, settings, def.reader(def.id, settings), upstream),
        createExecutionVenue: ({ directory }) => def.executionVenue(() => directory.ofProtocol(def.id)),
      };
    },
  };
}
