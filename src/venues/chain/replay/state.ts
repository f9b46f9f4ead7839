import { getAddress, type Address } from 'viem';

/**
 * The fake chain's world state: SYNTHETIC. No recorded Aave or Uniswap responses exist (see
 * ../shared/fixtures/README.md), so the figures below were written by hand to look like
 * Ethereum mainnet (real contract and token addresses, symbols and decimals; rates, balances,
 * prices and liquidity of plausible size), and are not a capture of any block.
 */

export interface FakeToken {
  symbol: string;
  decimals: number;
}

/** One Aave reserve, with the fields of the UiPoolDataProvider struct that the figures come from. */
export interface FakeReserve {
  underlyingAsset: Address;
  symbol: string;
  decimals: number;
  isActive: boolean;
  isFrozen: boolean;
  isPaused: boolean;
  /** Ray (1e27) APRs. */
  liquidityRate: bigint;
  variableBorrowRate: bigint;
  liquidityIndex: bigint;
  variableBorrowIndex: bigint;
  /** Token units. */
  availableLiquidity: bigint;
  virtualUnderlyingBalance: bigint;
  totalScaledVariableDebt: bigint;
  /** In the market reference currency's unit (USD with 8 decimals on mainnet). */
  priceInMarketReferenceCurrency: bigint;
  lastUpdateTimestamp: number;
}

export interface FakePool {
  token0: Address;
  token1: Address;
  fee: number;
  sqrtPriceX96: bigint;
  liquidity: bigint;
}

export interface FakeAave {
  uiPoolDataProvider: Address;
  poolAddressesProvider: Address;
  pool: Address;
  marketReferenceCurrencyUnit: bigint;
  marketReferenceCurrencyPriceInUsd: bigint;
  networkBaseTokenPriceInUsd: bigint;
  reserves: FakeReserve[];
}

export interface WorldState {
  tokens: Map<Address, FakeToken>;
  aave: FakeAave;
  pools: Map<Address, FakePool>;
}

export const ADDRESSES = {
  multicall3: getAddress('0xcA11bde05977b3631167028862bE2a173976CA11'),
  aavePool: getAddress('0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2'),
  aavePoolAddressesProvider: getAddress('0x2f39d218133AFaB8F2B819B1066c7E434Ad94E9e'),
  aaveUiPoolDataProvider: getAddress('0x56b7A1012765C285afAC8b8F25C69Bf10ccfE978'),
  USDC: getAddress('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
  WETH: getAddress('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'),
  WBTC: getAddress('0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599'),
  USDT: getAddress('0xdAC17F958D2ee523a2206206994597C13D831ec7'),
  DAI: getAddress('0x6B175474E89094C44Da98b954EedeAC495271d0F'),
  wstETH: getAddress('0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0'),
  LUSD: getAddress('0x5f98805A4E8be255a32880FDeC7F6728C6568bA0'),
  poolUsdcWeth500: getAddress('0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640'),
  poolUsdcWeth3000: getAddress('0x8ad599c3A0ff1De082011EFDDc58f1908eb6e6D8'),
  poolWbtcWeth3000: getAddress('0xCBCdF9626bC03E24f779434178A73a0B4bad62eD'),
  poolWethUsdt500: getAddress('0x11b815efB8f581194ae79006d24E0d814B7697F6'),
} as const;

const RAY = 10n ** 27n;

/** A decimal string scaled to an integer of `decimals` places ("4.5", 25 → 45·10^24), exactly. */
export function scaled(value: string, decimals: number): bigint {
  const [int, frac = ''] = value.split('.');
  if (frac.length > decimals) throw new Error(`${value} has more than ${decimals} decimals`);
  return BigInt(int! + frac.padEnd(decimals, '0'));
}

/** An annual rate in percent as Aave's ray APR ("4.5" → 0.045·1e27). */
export const rayFromPercent = (percent: string): bigint => scaled(percent, 25);

/** Integer square root (floor), by Newton's method from above. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

/**
 * The sqrtPriceX96 at which one `base` token is worth `price` of the pool's other token:
 * floor(√(price(token0 in token1, raw units) · 2^192)).
 */
export function sqrtPriceX96For(pool: FakePool, tokens: Map<Address, FakeToken>, base: Address, price: string): bigint {
  const [t0, t1] = [tokens.get(pool.token0)!, tokens.get(pool.token1)!];
  const scale = 18;
  const p = scaled(price, scale); // price · 10^18
  // raw price of token0 in token1 = p / 10^18 · 10^(d1 − d0), inverted when token1 is the base.
  let num = base === pool.token0 ? p * 10n ** BigInt(t1.decimals) : 10n ** BigInt(scale) * 10n ** BigInt(scale) * 10n ** BigInt(t1.decimals);
  let den = base === pool.token0 ? 10n ** BigInt(scale) * 10n ** BigInt(t0.decimals) : p * 10n ** BigInt(scale) * 10n ** BigInt(t0.decimals);
  num <<= 192n;
  if (num / den === 0n) den = 1n;
  return isqrt(num / den);
}

function reserve(
  symbol: keyof typeof ADDRESSES,
  decimals: number,
  r: { supply: string; borrow: string; available: string; debt: string; price: string; active?: boolean },
  now: number,
): FakeReserve {
  const available = scaled(r.available, decimals);
  const variableBorrowIndex = scaled('1.083417262840912335', 27);
  return {
    underlyingAsset: ADDRESSES[symbol],
    symbol,
    decimals,
    isActive: r.active ?? true,
    isFrozen: false,
    isPaused: false,
    liquidityRate: rayFromPercent(r.supply),
    variableBorrowRate: rayFromPercent(r.borrow),
    liquidityIndex: scaled('1.051203981652030149', 27),
    variableBorrowIndex,
    availableLiquidity: available,
    virtualUnderlyingBalance: available,
    // Scaled debt, so that scaled × index is about `debt`.
    totalScaledVariableDebt: (scaled(r.debt, decimals) * RAY) / variableBorrowIndex,
    priceInMarketReferenceCurrency: scaled(r.price, 8),
    lastUpdateTimestamp: Math.floor(now / 1000) - 60,
  };
}

/** The synthetic state the fake starts with (see the note at the top of this file). */
export function seedState(now = Date.now()): WorldState {
  const tokens = new Map<Address, FakeToken>([
    [ADDRESSES.USDC, { symbol: 'USDC', decimals: 6 }],
    [ADDRESSES.WETH, { symbol: 'WETH', decimals: 18 }],
    [ADDRESSES.WBTC, { symbol: 'WBTC', decimals: 8 }],
    [ADDRESSES.USDT, { symbol: 'USDT', decimals: 6 }],
    [ADDRESSES.DAI, { symbol: 'DAI', decimals: 18 }],
    [ADDRESSES.wstETH, { symbol: 'wstETH', decimals: 18 }],
    [ADDRESSES.LUSD, { symbol: 'LUSD', decimals: 18 }],
  ]);
  const aave: FakeAave = {
    uiPoolDataProvider: ADDRESSES.aaveUiPoolDataProvider,
    poolAddressesProvider: ADDRESSES.aavePoolAddressesProvider,
    pool: ADDRESSES.aavePool,
    marketReferenceCurrencyUnit: 10n ** 8n,
    marketReferenceCurrencyPriceInUsd: 10n ** 8n,
    networkBaseTokenPriceInUsd: scaled('3012.34567891', 8),
    reserves: [
      reserve('WETH', 18, { supply: '1.9234', borrow: '2.6187', available: '312745.118203', debt: '1804512.77', price: '3012.34567891' }, now),
      reserve('wstETH', 18, { supply: '0.0412', borrow: '0.3107', available: '1012034.5', debt: '20431.2', price: '3591.02337410' }, now),
      reserve('WBTC', 8, { supply: '0.0871', borrow: '0.5213', available: '23011.52', debt: '1903.004', price: '64012.51000000' }, now),
      reserve('USDC', 6, { supply: '4.5127', borrow: '5.9876', available: '412003117.331', debt: '2101877310.12', price: '0.99985100' }, now),
      reserve('DAI', 18, { supply: '3.8802', borrow: '5.4410', available: '70400012.5', debt: '210771022.91', price: '1.00012000' }, now),
      reserve('USDT', 6, { supply: '4.0311', borrow: '5.5620', available: '301447001.12', debt: '1400312002.4', price: '1.00004000' }, now),
      // Delisted on the real market: inactive, so the gateway must not list it.
      reserve('LUSD', 18, { supply: '0', borrow: '0', available: '0', debt: '0', price: '0.99500000', active: false }, now),
    ],
  };
  const pools = new Map<Address, FakePool>();
  const pool = (address: Address, token0: Address, token1: Address, fee: number, base: Address, price: string, liquidity: bigint) => {
    const p: FakePool = { token0, token1, fee, sqrtPriceX96: 0n, liquidity };
    p.sqrtPriceX96 = sqrtPriceX96For(p, tokens, base, price);
    pools.set(address, p);
  };
  pool(ADDRESSES.poolUsdcWeth500, ADDRESSES.USDC, ADDRESSES.WETH, 500, ADDRESSES.WETH, '3012.341', 912_445_102_379_011_342n);
  pool(ADDRESSES.poolUsdcWeth3000, ADDRESSES.USDC, ADDRESSES.WETH, 3000, ADDRESSES.WETH, '3013.105', 201_337_470_004_118_905n);
  pool(ADDRESSES.poolWbtcWeth3000, ADDRESSES.WBTC, ADDRESSES.WETH, 3000, ADDRESSES.WBTC, '21.25071', 10_851_993_442_071_309n);
  pool(ADDRESSES.poolWethUsdt500, ADDRESSES.WETH, ADDRESSES.USDT, 500, ADDRESSES.WETH, '3011.902', 364_100_284_913_877_021n);
  return { tokens, aave, pools };
}

/** A deep copy: each sealed block keeps the state it was mined with. */
export function copyState(s: WorldState): WorldState {
  return {
    tokens: new Map([...s.tokens].map(([a, t]) => [a, { ...t }])),
    aave: { ...s.aave, reserves: s.aave.reserves.map((r) => ({ ...r })) },
    pools: new Map([...s.pools].map(([a, p]) => [a, { ...p }])),
  };
}
