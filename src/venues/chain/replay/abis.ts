import { parseAbi } from 'viem';

/**
 * The contract interfaces the fake answers, transcribed on their own from the Solidity sources
 * (not imported from the gateway's venues, so a mistake in either shows as a failing test).
 */

/** aave-dao/aave-v3-origin src/contracts/helpers/interfaces/IUiPoolDataProviderV3.sol, v3.4+ (no unbacked, no virtualAccActive). */
const AGGREGATED_RESERVE_DATA = [
  'address underlyingAsset',
  'string name',
  'string symbol',
  'uint256 decimals',
  'uint256 baseLTVasCollateral',
  'uint256 reserveLiquidationThreshold',
  'uint256 reserveLiquidationBonus',
  'uint256 reserveFactor',
  'bool usageAsCollateralEnabled',
  'bool borrowingEnabled',
  'bool isActive',
  'bool isFrozen',
  // base data
  'uint128 liquidityIndex',
  'uint128 variableBorrowIndex',
  'uint128 liquidityRate',
  'uint128 variableBorrowRate',
  'uint40 lastUpdateTimestamp',
  'address aTokenAddress',
  'address variableDebtTokenAddress',
  'address interestRateStrategyAddress',
  'uint256 availableLiquidity',
  'uint256 totalScaledVariableDebt',
  'uint256 priceInMarketReferenceCurrency',
  'address priceOracle',
  'uint256 variableRateSlope1',
  'uint256 variableRateSlope2',
  'uint256 baseVariableBorrowRate',
  'uint256 optimalUsageRatio',
  // v3 only
  'bool isPaused',
  'bool isSiloedBorrowing',
  'uint128 accruedToTreasury',
  'uint128 isolationModeTotalDebt',
  'bool flashLoanEnabled',
  'uint256 debtCeiling',
  'uint256 debtCeilingDecimals',
  'uint256 borrowCap',
  'uint256 supplyCap',
  'bool borrowableInIsolation',
  // v3.1
  'uint128 virtualUnderlyingBalance',
  // v3.3
  'uint128 deficit',
];

const BASE_CURRENCY_INFO = [
  'uint256 marketReferenceCurrencyUnit',
  'int256 marketReferenceCurrencyPriceInUsd',
  'int256 networkBaseTokenPriceInUsd',
  'uint8 networkBaseTokenPriceDecimals',
];

export const fakeAbis = {
  uiPoolDataProvider: parseAbi([
    `function getReservesData(address provider) view returns ((${AGGREGATED_RESERVE_DATA.join(', ')})[] reserves, (${BASE_CURRENCY_INFO.join(', ')}) base)`,
  ]),
  /** aave-dao/aave-v3-origin src/contracts/interfaces/IPoolAddressesProvider.sol (the one call). */
  poolAddressesProvider: parseAbi(['function getPool() view returns (address)']),
  /** Uniswap/v3-core IUniswapV3PoolImmutables and IUniswapV3PoolState (the calls a price needs). */
  uniswapPool: parseAbi([
    'function token0() external view returns (address)',
    'function token1() external view returns (address)',
    'function fee() external view returns (uint24)',
    'function liquidity() external view returns (uint128)',
    'function slot0() external view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  ]),
  erc20: parseAbi(['function decimals() external view returns (uint8)', 'function symbol() external view returns (string)']),
  /** mds1/multicall Multicall3.sol. */
  multicall3: parseAbi([
    'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  ]),
};
