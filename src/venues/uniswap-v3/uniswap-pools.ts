import type { Address, PublicClient } from 'viem';
import { ratioToFixed } from '../../domain/decimal-strings.js';
import type { MarketDefinition } from '../../domain/market.js';
import { describeFailure } from '../chain/chain-rpc.js';
import { callEach, chainMarket, tokenSymbol } from '../chain/chain-markets.js';
import type { ChainMarket, ChainRead, ChainReader } from '../chain/chain-source.js';
import { erc20MetadataAbi, uniswapV3PoolAbi } from './uniswap-abi.js';
import type { UniswapSettings } from './uniswap-settings.js';

const Q96 = 2n ** 96n;
const Q192 = Q96 * Q96;
/** Prices carry 10 significant digits (fixed per market at its first price), at most 18 decimals. */
const PRICE_SIGNIFICANT_DIGITS = 10;
const MAX_PRICE_DECIMALS = 18;
/** Liquidity in quote units, to the quote token's decimals (at most 8, as the ledger keeps). */
const MAX_LIQUIDITY_DECIMALS = 8;
/** The token that prices the other, first found first: a pool of two of them is quoted in the earlier. */
const QUOTE_TOKENS = ['USDC', 'USDT', 'DAI', 'WETH', 'WBTC'];
/** How long a pool that could not be resolved (not a v3 pool, a token without a plain symbol) waits before it is asked again. */
const RETRY_MS = 5 * 60_000;

interface Token {
  address: Address;
  symbol: string;
  decimals: number;
}

/** A pool's immutables, read once: its tokens, fee, and which token is the market's base. */
export interface PoolInfo {
  address: Address;
  fee: number;
  token0: Token;
  token1: Token;
  baseIsToken0: boolean;
}

/**
 * A pool's market id: `<BASE>-<QUOTE>-<fee>`, the fee in hundredths of a basis point as the pool
 * contract and Uniswap's interface give it (WETH-USDC-500 is the 0.05 % pool, WETH-USDC-3000 the
 * 0.3 % one). Every pool carries its fee, so an id never changes when another pool of the pair
 * is configured; the asset symbol alone (WETH) resolves to the first pool listing it.
 */
export const poolMarketId = (base: string, quote: string, fee: number) => `${base}-${quote}-${fee}`;

/** The fee of a pool market, from its id (1 = 100 %). */
export function poolFeeRate(marketId: string): number {
  return Number(marketId.slice(marketId.lastIndexOf('-') + 1)) / 1_000_000;
}

/**
 * The base token's price in the quote token from `slot0.sqrtPriceX96`, as an exact ratio:
 * price(token0 in token1) = sqrtPriceX96² / 2^192 × 10^(decimals0 − decimals1), inverted when
 * token1 is the base.
 */
export function poolPrice(sqrtPriceX96: bigint, pool: PoolInfo): [numerator: bigint, denominator: bigint] {
  const n = sqrtPriceX96 * sqrtPriceX96 * 10n ** BigInt(pool.token0.decimals);
  const d = Q192 * 10n ** BigInt(pool.token1.decimals);
  return pool.baseIsToken0 ? [n, d] : [d, n];
}

/**
 * The in-range liquidity L as the quote-token reserve of the constant-product pool it equals at
 * the current price: L·√P of token1 (L/√P of token0), in the quote token's units.
 */
export function poolQuoteReserve(liquidity: bigint, sqrtPriceX96: bigint, pool: PoolInfo): [numerator: bigint, denominator: bigint] {
  return pool.baseIsToken0
    ? [liquidity * sqrtPriceX96, Q96 * 10n ** BigInt(pool.token1.decimals)]
    : [liquidity * Q96, sqrtPriceX96 * 10n ** BigInt(pool.token0.decimals)];
}

/** Decimals that give the ratio n/d ten significant digits. */
export function significantDecimals(n: bigint, d: bigint): number {
  let magnitude: number;
  if (n >= d) magnitude = (n / d).toString().length;
  else {
    magnitude = 0;
    for (let x = n * 10n; x < d && magnitude > -MAX_PRICE_DECIMALS; x *= 10n) magnitude -= 1;
  }
  return Math.max(0, Math.min(MAX_PRICE_DECIMALS, PRICE_SIGNIFICANT_DIGITS - magnitude));
}

/** Which of two tokens is the base: the other is the earlier of QUOTE_TOKENS, else token1 (Uniswap's own price is token0's in token1). */
function baseIsToken0(symbol0: string, symbol1: string): boolean {
  const rank = (s: string) => (QUOTE_TOKENS.includes(s) ? QUOTE_TOKENS.indexOf(s) : QUOTE_TOKENS.length);
  return rank(symbol0) >= rank(symbol1);
}

/**
 * Uniswap v3 pools as swap markets: each pool's immutables (tokens, fee) and its tokens' symbols
 * and decimals are read once; each new block then reads every pool's `slot0` and `liquidity` in
 * one Multicall3 call at that block. A pool that cannot be read is left out and said (the others
 * are served); one that is not a v3 pool, or whose token has no plain symbol, is asked again
 * every five minutes.
 */
export class UniswapReader implements ChainReader {
  private readonly tokens = new Map<Address, Token>();
  private readonly resolved = new Map<Address, { info: PoolInfo; market?: MarketDefinition }>();
  private readonly unresolved = new Map<Address, { reason: string; at: number }>();

  constructor(
    private readonly venueId: string,
    private readonly settings: UniswapSettings,
  ) {}

  async read(client: PublicClient, blockNumber: bigint): Promise<ChainRead> {
    await this.resolve(client, blockNumber);
    const pools = this.settings.pools.flatMap((a) => this.resolved.get(a) ?? []);
    const problems = [...this.unresolved.entries()].map(([address, u]) => `pool ${address}: ${u.reason}`);
    if (pools.length === 0) return { markets: [], problems };
    const results = await callEach(
      client,
      pools.map((p) => p.info.address),
      uniswapV3PoolAbi,
      ['slot0', 'liquidity'],
      blockNumber,
    );
    const markets: ChainMarket[] = [];
    pools.forEach((pool, i) => {
      const [slot0, liquidity] = results[i]!;
      if (slot0?.status !== 'success' || liquidity?.status !== 'success') {
        const failed = slot0?.status === 'failure' ? slot0.error : liquidity?.error;
        problems.push(`pool ${pool.info.address}: ${describeFailure(failed, this.settings.rpcUrl)}`);
        return;
      }
      const sqrtPriceX96 = (slot0.result as readonly [bigint, ...unknown[]])[0];
      if (sqrtPriceX96 === 0n) {
        problems.push(`pool ${pool.info.address}: not initialized (no price)`);
        return;
      }
      const [n, d] = poolPrice(sqrtPriceX96, pool.info);
      pool.market ??= this.marketOf(pool.info, significantDecimals(n, d));
      if (markets.some((m) => m.market.id === pool.market!.id)) {
        problems.push(`pool ${pool.info.address}: a second pool of ${pool.market.id}`);
        return;
      }
      const quote = pool.info.baseIsToken0 ? pool.info.token1 : pool.info.token0;
      const [ln, ld] = poolQuoteReserve(liquidity.result as bigint, sqrtPriceX96, pool.info);
      markets.push({
        market: pool.market,
        price: ratioToFixed(n, d, pool.market.priceDecimals),
        figures: { liquidity: ratioToFixed(ln, ld, Math.min(quote.decimals, MAX_LIQUIDITY_DECIMALS)) },
      });
    });
    return { markets, problems };
  }

  private marketOf(info: PoolInfo, priceDecimals: number): MarketDefinition {
    const [base, quote] = info.baseIsToken0 ? [info.token0, info.token1] : [info.token1, info.token0];
    return chainMarket(this.venueId, {
      id: poolMarketId(base.symbol, quote.symbol, info.fee),
      asset: base.symbol,
      quote: quote.symbol,
      kind: 'swap_pool',
      priceDecimals,
      tokenDecimals: base.decimals,
    });
  }

  /** Reads the immutables of the pools not resolved yet (and not waiting to be asked again), then their new tokens' metadata. */
  private async resolve(client: PublicClient, blockNumber: bigint): Promise<void> {
    const now = Date.now();
    const pending = this.settings.pools.filter((a) => !this.resolved.has(a) && now - (this.unresolved.get(a)?.at ?? -Infinity) >= RETRY_MS);
    if (pending.length === 0) return;
    const immutables = await callEach(client, pending, uniswapV3PoolAbi, ['token0', 'token1', 'fee'], blockNumber);
    const found = new Map<Address, { token0: Address; token1: Address; fee: number }>();
    pending.forEach((address, i) => {
      const [t0, t1, fee] = immutables[i]!;
      if (t0?.status !== 'success' || t1?.status !== 'success' || fee?.status !== 'success') {
        this.unresolved.set(address, { reason: 'does not answer token0, token1 and fee: not a Uniswap v3 pool on this chain?', at: now });
        return;
      }
      found.set(address, { token0: t0.result as Address, token1: t1.result as Address, fee: Number(fee.result) });
    });
    await this.readTokens(
      client,
      blockNumber,
      [...found.values()].flatMap((p) => [p.token0, p.token1]),
    );
    for (const [address, p] of found) {
      const [token0, token1] = [this.tokens.get(p.token0), this.tokens.get(p.token1)];
      if (!token0 || !token1) {
        this.unresolved.set(address, { reason: 'a token without a plain symbol and decimals', at: now });
        continue;
      }
      this.unresolved.delete(address);
      this.resolved.set(address, { info: { address, fee: p.fee, token0, token1, baseIsToken0: baseIsToken0(token0.symbol, token1.symbol) } });
    }
  }

  private async readTokens(client: PublicClient, blockNumber: bigint, addresses: readonly Address[]): Promise<void> {
    const unknown = [...new Set(addresses)].filter((a) => !this.tokens.has(a));
    if (unknown.length === 0) return;
    const metadata = await callEach(client, unknown, erc20MetadataAbi, ['symbol', 'decimals'], blockNumber);
    unknown.forEach((address, i) => {
      const [symbol, decimals] = metadata[i]!;
      const name = symbol?.status === 'success' ? tokenSymbol(String(symbol.result)) : undefined;
      if (name && decimals?.status === 'success') this.tokens.set(address, { address, symbol: name, decimals: Number(decimals.result) });
    });
  }
}
