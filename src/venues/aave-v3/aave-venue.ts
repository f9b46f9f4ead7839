import { LendingVenue } from '../../execution/venues/lending-venue.js';
import { chainVenueModule } from '../chain/chain-venue.js';
import { AaveReader } from './aave-reserves.js';
import { AAVE_VARIABLES, aaveSettings } from './aave-settings.js';

/**
 * Aave v3's reserves: supply and borrow APYs, utilisation and oracle prices read on-chain with
 * viem over AAVE_RPC_URL or ETH_RPC_URL; supply, withdraw, borrow and repay filled on paper at
 * those figures.
 *
 * On-chain reads rather than Aave's hosted API (AaveKit GraphQL): the one node the operator
 * already runs or rents serves both chain venues (no third-party API, account or extra rate
 * limit), the chain is the source of truth the hosted API itself indexes, and every figure comes
 * with the block it was read at, whose timestamp is its as-of time.
 */
export const aaveV3 = chainVenueModule({
  id: 'aave-v3',
  kind: 'lending',
  name: 'Aave v3 lending',
  actions: [
    ['supply', 'Supply'],
    ['withdraw', 'Withdraw'],
    ['borrow', 'Borrow'],
    ['repay', 'Repay'],
  ],
  variables: AAVE_VARIABLES,
  settings: aaveSettings,
  reader: (id, settings) => new AaveReader(id, settings),
  executionVenue: (markets) => new LendingVenue('aave-v3', markets),
});
