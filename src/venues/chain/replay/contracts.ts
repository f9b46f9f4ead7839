import { decodeFunctionData, encodeFunctionResult, getAddress, isAddress, type Abi, type Address, type Hex } from 'viem';
import { fakeAbis } from './abis.js';
import { ADDRESSES, type WorldState } from './state.js';

/** What an `eth_call` does: returns data, or reverts. A call to an address without code returns nothing (`0x`), as on a chain. */
export type CallOutcome = { reverted: false; data: Hex; functionName: string } | { reverted: true; data: Hex; functionName: string };

const NOTHING: Hex = '0x';
const returns = (data: Hex, functionName: string): CallOutcome => ({ reverted: false, data, functionName });
const reverts = (functionName: string): CallOutcome => ({ reverted: true, data: NOTHING, functionName });

/** Decodes `data` against `abi`: the function and its arguments, or undefined for a selector the contract has not got. */
function decode(abi: Abi, data: Hex): { functionName: string; args: readonly unknown[] } | undefined {
  try {
    const { functionName, args } = decodeFunctionData({ abi, data });
    return { functionName, args: args ?? [] };
  } catch {
    return undefined;
  }
}

/**
 * Executes one read-only call against the fake's world state, by the callee's address and the
 * call's selector (decoded with viem's decodeFunctionData, answered with encodeFunctionResult):
 * Multicall3's aggregate3, the Aave UiPoolDataProvider and PoolAddressesProvider, Uniswap v3
 * pools and ERC-20 metadata. An unknown selector reverts; an unknown address has no code.
 */
export function executeCall(state: WorldState, to: string, data: Hex): CallOutcome {
  if (!isAddress(to, { strict: false })) return reverts('unknown');
  const target = getAddress(to);
  if (target === ADDRESSES.multicall3) return aggregate3(state, data);
  if (target === state.aave.uiPoolDataProvider) return uiPoolDataProvider(state, data);
  if (target === state.aave.poolAddressesProvider) {
    const call = decode(fakeAbis.poolAddressesProvider, data);
    if (!call) return reverts('unknown');
    return returns(encodeFunctionResult({ abi: fakeAbis.poolAddressesProvider, functionName: 'getPool', result: state.aave.pool }), call.functionName);
  }
  const pool = state.pools.get(target);
  if (pool) return uniswapPool(pool, data);
  const token = state.tokens.get(target);
  if (token) {
    const call = decode(fakeAbis.erc20, data);
    if (!call) return reverts('unknown');
    const data_ =
      call.functionName === 'symbol'
        ? encodeFunctionResult({ abi: fakeAbis.erc20, functionName: 'symbol', result: token.symbol })
        : encodeFunctionResult({ abi: fakeAbis.erc20, functionName: 'decimals', result: token.decimals });
    return returns(data_, call.functionName);
  }
  return returns(NOTHING, 'no code');
}

function aggregate3(state: WorldState, data: Hex): CallOutcome {
  const call = decode(fakeAbis.multicall3, data);
  if (!call) return reverts('unknown');
  const calls = call.args[0] as readonly { target: Address; allowFailure: boolean; callData: Hex }[];
  const results: { success: boolean; returnData: Hex }[] = [];
  const names = new Set<string>();
  for (const c of calls) {
    const outcome = executeCall(state, c.target, c.callData);
    names.add(outcome.functionName);
    // Multicall3 reverts the whole call when a call that may not fail does.
    if (outcome.reverted && !c.allowFailure) return reverts('aggregate3');
    results.push({ success: !outcome.reverted, returnData: outcome.data });
  }
  const name = `aggregate3: ${[...names].join(', ')}`;
  return returns(encodeFunctionResult({ abi: fakeAbis.multicall3, functionName: 'aggregate3', result: results }), name);
}

function uiPoolDataProvider(state: WorldState, data: Hex): CallOutcome {
  const call = decode(fakeAbis.uiPoolDataProvider, data);
  if (!call) return reverts('unknown');
  const { aave } = state;
  // Its provider argument is called for the pool, oracle and data provider: any other reverts.
  if (getAddress(call.args[0] as string) !== aave.poolAddressesProvider) return reverts('getReservesData');
  const reserves = aave.reserves.map((r) => ({
    underlyingAsset: r.underlyingAsset,
    name: r.symbol === 'WETH' ? 'Wrapped Ether' : r.symbol,
    symbol: r.symbol,
    decimals: BigInt(r.decimals),
    baseLTVasCollateral: 8050n,
    reserveLiquidationThreshold: 8300n,
    reserveLiquidationBonus: 10500n,
    reserveFactor: 1500n,
    usageAsCollateralEnabled: true,
    borrowingEnabled: true,
    isActive: r.isActive,
    isFrozen: r.isFrozen,
    liquidityIndex: r.liquidityIndex,
    variableBorrowIndex: r.variableBorrowIndex,
    liquidityRate: r.liquidityRate,
    variableBorrowRate: r.variableBorrowRate,
    lastUpdateTimestamp: r.lastUpdateTimestamp,
    aTokenAddress: '0x4d5F47FA6A74757f35C14fD3a6Ef8E3C9BC514E8',
    variableDebtTokenAddress: '0xeA51d7853EEFb32b6ee06b1C12E6dcCA88Be0fFE',
    interestRateStrategyAddress: '0x9ec6F08190DeA04A54f8Afc53Db96134e5E3FdFB',
    availableLiquidity: r.availableLiquidity,
    totalScaledVariableDebt: r.totalScaledVariableDebt,
    priceInMarketReferenceCurrency: r.priceInMarketReferenceCurrency,
    priceOracle: '0x5424384B256154046E9667dDFaaa5e550145215e',
    variableRateSlope1: 27n * 10n ** 24n,
    variableRateSlope2: 800n * 10n ** 24n,
    baseVariableBorrowRate: 0n,
    optimalUsageRatio: 90n * 10n ** 25n,
    isPaused: r.isPaused,
    isSiloedBorrowing: false,
    accruedToTreasury: 0n,
    isolationModeTotalDebt: 0n,
    flashLoanEnabled: true,
    debtCeiling: 0n,
    debtCeilingDecimals: 2n,
    borrowCap: 0n,
    supplyCap: 0n,
    borrowableInIsolation: false,
    virtualUnderlyingBalance: r.virtualUnderlyingBalance,
    deficit: 0n,
  }));
  const base = {
    marketReferenceCurrencyUnit: aave.marketReferenceCurrencyUnit,
    marketReferenceCurrencyPriceInUsd: aave.marketReferenceCurrencyPriceInUsd,
    networkBaseTokenPriceInUsd: aave.networkBaseTokenPriceInUsd,
    networkBaseTokenPriceDecimals: 8,
  };
  return returns(
    encodeFunctionResult({ abi: fakeAbis.uiPoolDataProvider as Abi, functionName: 'getReservesData', result: [reserves, base] }),
    'getReservesData',
  );
}

function uniswapPool(pool: WorldState['pools'] extends Map<Address, infer P> ? P : never, data: Hex): CallOutcome {
  const call = decode(fakeAbis.uniswapPool, data);
  if (!call) return reverts('unknown');
  const abi = fakeAbis.uniswapPool;
  switch (call.functionName) {
    case 'token0':
      return returns(encodeFunctionResult({ abi, functionName: 'token0', result: pool.token0 }), 'token0');
    case 'token1':
      return returns(encodeFunctionResult({ abi, functionName: 'token1', result: pool.token1 }), 'token1');
    case 'fee':
      return returns(encodeFunctionResult({ abi, functionName: 'fee', result: pool.fee }), 'fee');
    case 'liquidity':
      return returns(encodeFunctionResult({ abi, functionName: 'liquidity', result: pool.liquidity }), 'liquidity');
    default: {
      // The tick is only realistic (the gateway reads the price from sqrtPriceX96): log base 1.0001 of the raw price.
      const raw = (Number(pool.sqrtPriceX96) / 2 ** 96) ** 2;
      const tick = raw > 0 ? Math.floor(Math.log(raw) / Math.log(1.0001)) : 0;
      return returns(encodeFunctionResult({ abi, functionName: 'slot0', result: [pool.sqrtPriceX96, tick, 412, 723, 723, 0, true] }), 'slot0');
    }
  }
}
