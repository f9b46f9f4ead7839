import { parseAbi } from 'viem';

/** The pool calls the venue makes (Uniswap/v3-core, contracts/interfaces/pool/IUniswapV3PoolImmutables.sol and IUniswapV3PoolState.sol). */
export const uniswapV3PoolAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function fee() view returns (uint24)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
]);

/** ERC-20's optional metadata, read once per token. */
export const erc20MetadataAbi = parseAbi(['function symbol() view returns (string)', 'function decimals() view returns (uint8)']);
