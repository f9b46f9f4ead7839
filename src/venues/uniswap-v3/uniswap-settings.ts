import type { Address } from 'viem';
import { chainSettings, contractAddress, MAINNET_CHAIN_ID, variable, type ChainSettings } from '../chain/chain-settings.js';
import type { VenueEnv } from '../venue-module.js';

/**
 * The pools served on Ethereum mainnet unless UNISWAP_POOLS says otherwise: the deepest WETH
 * pools, USDC at both its busy fee tiers (so the two ids of one pair show).
 */
export const UNISWAP_V3_ETHEREUM_POOLS: readonly Address[] = [
  '0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640', // USDC/WETH 0.05 %
  '0x8ad599c3A0ff1De082011EFDDc58f1908eb6e6D8', // USDC/WETH 0.3 %
  '0xCBCdF9626bC03E24f779434178A73a0B4bad62eD', // WBTC/WETH 0.3 %
  '0x11b815efB8f581194ae79006d24E0d814B7697F6', // WETH/USDT 0.05 %
];

export const UNISWAP_VARIABLES = [
  'UNISWAP_RPC_URL',
  'UNISWAP_CHAIN_ID',
  'UNISWAP_POOLS',
  'UNISWAP_POLL_MS',
  'UNISWAP_REQUESTS_PER_MINUTE',
  'UNISWAP_TIMEOUT_MS',
] as const;

export interface UniswapSettings extends ChainSettings {
  /** The pools served, in order (the first pool of a pair is the one a swap of it trades). */
  pools: readonly Address[];
}

const MAX_POOLS = 100;

/**
 * Uniswap v3's variables (the chain ones in chain-settings.ts); undefined without UNISWAP_RPC_URL
 * or ETH_RPC_URL (the token swap stays simulated). UNISWAP_POOLS (pool addresses separated by
 * commas) defaults to mainnet pools and must be set on another chain.
 */
export function uniswapSettings(source: VenueEnv): UniswapSettings | undefined {
  const chain = chainSettings(source, 'UNISWAP');
  if (!chain) return undefined;
  const raw = source.UNISWAP_POOLS;
  if (raw === undefined && chain.chainId !== MAINNET_CHAIN_ID) {
    throw new Error(`Invalid configuration: UNISWAP_POOLS must be set on chain ${chain.chainId} (its default pools are Ethereum mainnet's)`);
  }
  const pools =
    raw === undefined ? UNISWAP_V3_ETHEREUM_POOLS : raw.split(',').map((a) => variable({ UNISWAP_POOLS: a.trim() }, 'UNISWAP_POOLS', contractAddress));
  const unique = [...new Set(pools)];
  if (unique.length === 0 || unique.length > MAX_POOLS) throw new Error(`Invalid configuration: UNISWAP_POOLS: expected 1 to ${MAX_POOLS} pool addresses`);
  return { ...chain, pools: unique };
}
