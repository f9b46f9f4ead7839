import { Decimal } from '../../domain/decimal.js';
import { SwapVenue } from '../../execution/venues/swap-venue.js';
import { chainVenueModule } from '../chain/chain-venue.js';
import { poolFeeRate, UniswapReader } from './uniswap-pools.js';
import { UNISWAP_VARIABLES, uniswapSettings } from './uniswap-settings.js';

/**
 * Uniswap v3 pools (UNISWAP_POOLS): price from each pool's slot0 and its in-range liquidity,
 * read on-chain with viem over UNISWAP_RPC_URL or ETH_RPC_URL (the node the Aave venue reads
 * too: see aave-venue.ts for why on-chain reads). Swaps fill on paper as a constant-product pool
 * of that liquidity at that price with the pool's own fee, which is exactly a v3 pool for a swap
 * that stays within its current tick range.
 */
export const uniswapV3 = chainVenueModule({
  id: 'uniswap-v3',
  kind: 'token_swap',
  name: 'Uniswap v3 token swap',
  actions: [['swap', 'Swap']],
  variables: UNISWAP_VARIABLES,
  settings: uniswapSettings,
  reader: (id, settings) => new UniswapReader(id, settings),
  executionVenue: (markets) => new SwapVenue('uniswap-v3', markets, (pool) => new Decimal(poolFeeRate(pool.id))),
});
