import { isAddressEqual, type PublicClient } from 'viem';
import { Decimal } from '../../domain/decimal.js';
import { ratioToFixed } from '../../domain/decimal-strings.js';
import { rpcFailureOf } from '../chain/chain-rpc.js';
import { chainMarket, tokenSymbol } from '../chain/chain-markets.js';
import { Misconfigured, type ChainMarket, type ChainRead, type ChainReader } from '../chain/chain-source.js';
import { poolAddressesProviderAbi, uiPoolDataProviderAbi } from './aave-abi.js';
import type { AaveSettings } from './aave-settings.js';

/** Aave's fixed-point unit for rates and indexes (27 decimals). */
const RAY = 10n ** 27n;
/** Aave compounds per second over a 365-day year (WadRayMath / MathUtils.SECONDS_PER_YEAR). */
const SECONDS_PER_YEAR = 31_536_000;
/** Chainlink's USD feeds carry 8 decimals: the unit of `marketReferenceCurrencyPriceInUsd`. */
const USD_FEED_DECIMALS = 8;
/** Prices are published to the USD feeds' 8 decimals; rates in percent and utilisation to 4, as the simulated pool's. */
const PRICE_DECIMALS = 8;
const RATE_DECIMALS = 4;

/** Enough digits that (1 + r/n)^n over 31.5 M squarings-and-multiplies is exact far past the 4 decimals published. */
const Precise = Decimal.clone({ precision: 80 });

/**
 * A ray-denominated annual rate (liquidityRate, variableBorrowRate: APRs) as the APY it compounds
 * to per second, in percent: (1 + rate / SECONDS_PER_YEAR)^SECONDS_PER_YEAR − 1, as Aave's own
 * interface computes it, in decimal arithmetic (rounded half up).
 */
export function compoundedApyPercent(rayRate: bigint): string {
  const perSecond = new Precise(rayRate.toString()).div(RAY.toString()).div(SECONDS_PER_YEAR);
  return perSecond.plus(1).pow(SECONDS_PER_YEAR).minus(1).mul(100).toFixed(RATE_DECIMALS, Decimal.ROUND_HALF_UP);
}

/** WadRayMath.rayMul: a·b / RAY, rounded half up. */
const rayMul = (a: bigint, b: bigint) => (a * b + RAY / 2n) / RAY;

type Reserves = Awaited<ReturnType<typeof readReserves>>;
type Reserve = Reserves[0][number];
type BaseCurrency = Reserves[1];

function readReserves(client: PublicClient, settings: AaveSettings, blockNumber: bigint) {
  return client.readContract({
    address: settings.uiPoolDataProvider,
    abi: uiPoolDataProviderAbi,
    functionName: 'getReservesData',
    args: [settings.poolAddressesProvider],
    blockNumber,
  });
}

/**
 * A reserve's figures: the supply and variable-borrow APYs from its ray rates; utilisation as its
 * variable debt (scaled debt × borrow index) over debt plus available liquidity, the liquidity
 * being the reserve's virtual balance (what the rate strategy counts since v3.4, every reserve
 * being virtually accounted); its oracle price in USD, priceInMarketReferenceCurrency ×
 * marketReferenceCurrencyPriceInUsd / (marketReferenceCurrencyUnit × 10^8), as Aave's interface
 * converts it.
 */
export function reserveFigures(r: Reserve, base: BaseCurrency): { price: string; supplyApy: string; borrowApy: string; utilization: string } {
  const debt = rayMul(r.totalScaledVariableDebt, r.variableBorrowIndex);
  const liquidity = r.virtualUnderlyingBalance;
  return {
    price: ratioToFixed(
      r.priceInMarketReferenceCurrency * BigInt(base.marketReferenceCurrencyPriceInUsd),
      base.marketReferenceCurrencyUnit * 10n ** BigInt(USD_FEED_DECIMALS),
      PRICE_DECIMALS,
    ),
    supplyApy: compoundedApyPercent(r.liquidityRate),
    borrowApy: compoundedApyPercent(r.variableBorrowRate),
    utilization: debt === 0n ? ratioToFixed(0n, 1n, RATE_DECIMALS) : ratioToFixed(debt, debt + liquidity, RATE_DECIMALS),
  };
}

/**
 * Aave v3's reserves as lending markets (`<SYMBOL>-LEND`, as the simulated pool names its own),
 * all read in one `getReservesData` call of the UiPoolDataProvider at the poll's block. Inactive
 * reserves are not listed; a reserve without an oracle price, whose symbol cannot name a market,
 * or a second one of the same symbol, is left out and said (a price is never made up).
 */
export class AaveReader implements ChainReader {
  constructor(
    private readonly venueId: string,
    private readonly settings: AaveSettings,
  ) {}

  /** The addresses provider names the configured pool: the three addresses are one market, on this chain. */
  async verify(client: PublicClient): Promise<void> {
    const { pool, poolAddressesProvider } = this.settings;
    let named: string;
    try {
      named = await client.readContract({ address: poolAddressesProvider, abi: poolAddressesProviderAbi, functionName: 'getPool' });
    } catch (err) {
      if (rpcFailureOf(err)) throw err;
      throw new Misconfigured(`AAVE_POOL_ADDRESSES_PROVIDER ${poolAddressesProvider} does not answer getPool() on chain ${this.settings.chainId}`);
    }
    if (!isAddressEqual(named as `0x${string}`, pool)) {
      throw new Misconfigured(`AAVE_POOL_ADDRESSES_PROVIDER ${poolAddressesProvider} names the pool ${named}, not AAVE_POOL ${pool}`);
    }
  }

  async read(client: PublicClient, blockNumber: bigint): Promise<ChainRead> {
    const [reserves, base] = await readReserves(client, this.settings, blockNumber);
    const markets: ChainMarket[] = [];
    const problems: string[] = [];
    if (base.marketReferenceCurrencyPriceInUsd <= 0n || base.marketReferenceCurrencyUnit === 0n) {
      throw new Error('Aave answered a market reference currency without a USD price');
    }
    for (const r of reserves) {
      if (!r.isActive) continue;
      const asset = tokenSymbol(r.symbol);
      if (!asset) {
        problems.push(`reserve ${r.underlyingAsset} has a symbol that cannot name a market`);
        continue;
      }
      if (this.settings.assets && !this.settings.assets.has(asset)) continue;
      if (r.priceInMarketReferenceCurrency === 0n) {
        problems.push(`reserve ${asset} has no oracle price`);
        continue;
      }
      const id = `${asset}-LEND`;
      if (markets.some((m) => m.market.id === id)) {
        problems.push(`reserve ${r.underlyingAsset} repeats the symbol ${asset}`);
        continue;
      }
      const { price, ...figures } = reserveFigures(r, base);
      const market = chainMarket(this.venueId, { id, asset, quote: 'USD', kind: 'lending', priceDecimals: PRICE_DECIMALS, tokenDecimals: Number(r.decimals) });
      markets.push({ market, price, figures });
    }
    return { markets, problems };
  }
}
