import { parseAbi } from 'viem';

/**
 * The calls the venue makes, transcribed from aave-dao/aave-v3-origin
 * (src/contracts/helpers/interfaces/IUiPoolDataProviderV3.sol and IPoolAddressesProvider.sol).
 * The struct is the v3.4+ one (no `unbacked`, no `virtualAccActive`), as the UiPoolDataProvider
 * that bgd-labs/aave-address-book lists for Ethereum since v3.4 returns it; an older deployment
 * answers a struct of another shape, which does not decode (the poll fails saying so).
 */
export const uiPoolDataProviderAbi = parseAbi([
  'struct AggregatedReserveData { address underlyingAsset; string name; string symbol; uint256 decimals; uint256 baseLTVasCollateral; uint256 reserveLiquidationThreshold; uint256 reserveLiquidationBonus; uint256 reserveFactor; bool usageAsCollateralEnabled; bool borrowingEnabled; bool isActive; bool isFrozen; uint128 liquidityIndex; uint128 variableBorrowIndex; uint128 liquidityRate; uint128 variableBorrowRate; uint40 lastUpdateTimestamp; address aTokenAddress; address variableDebtTokenAddress; address interestRateStrategyAddress; uint256 availableLiquidity; uint256 totalScaledVariableDebt; uint256 priceInMarketReferenceCurrency; address priceOracle; uint256 variableRateSlope1; uint256 variableRateSlope2; uint256 baseVariableBorrowRate; uint256 optimalUsageRatio; bool isPaused; bool isSiloedBorrowing; uint128 accruedToTreasury; uint128 isolationModeTotalDebt; bool flashLoanEnabled; uint256 debtCeiling; uint256 debtCeilingDecimals; uint256 borrowCap; uint256 supplyCap; bool borrowableInIsolation; uint128 virtualUnderlyingBalance; uint128 deficit; }',
  'struct BaseCurrencyInfo { uint256 marketReferenceCurrencyUnit; int256 marketReferenceCurrencyPriceInUsd; int256 networkBaseTokenPriceInUsd; uint8 networkBaseTokenPriceDecimals; }',
  'function getReservesData(address provider) view returns (AggregatedReserveData[], BaseCurrencyInfo)',
]);

export const poolAddressesProviderAbi = parseAbi(['function getPool() view returns (address)']);
