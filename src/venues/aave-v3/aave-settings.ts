import type { Address } from 'viem';
import { z } from 'zod';
import { chainSettings, mainnetDefault, variable, type ChainSettings } from '../chain/chain-settings.js';
import type { VenueEnv } from '../venue-module.js';

/** Aave v3's Ethereum market (bgd-labs/aave-address-book, AaveV3Ethereum): the defaults on chain 1. */
export const AAVE_V3_ETHEREUM = {
  pool: '0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2',
  poolAddressesProvider: '0x2f39d218133AFaB8F2B819B1066c7E434Ad94E9e',
  uiPoolDataProvider: '0x56b7A1012765C285afAC8b8F25C69Bf10ccfE978',
} as const satisfies Record<string, Address>;

export const AAVE_VARIABLES = [
  'AAVE_RPC_URL',
  'AAVE_CHAIN_ID',
  'AAVE_POOL',
  'AAVE_POOL_ADDRESSES_PROVIDER',
  'AAVE_UI_POOL_DATA_PROVIDER',
  'AAVE_ASSETS',
  'AAVE_POLL_MS',
  'AAVE_REQUESTS_PER_MINUTE',
  'AAVE_TIMEOUT_MS',
] as const;

export interface AaveSettings extends ChainSettings {
  pool: Address;
  poolAddressesProvider: Address;
  uiPoolDataProvider: Address;
  /** Only these reserves (upper-case symbols), instead of every active one. */
  assets: ReadonlySet<string> | undefined;
}

const assets = z
  .string()
  .regex(/^[\w.+-]+(,[\w.+-]+)*$/, 'expected token symbols separated by commas, such as USDC,WETH')
  .transform((s) => new Set(s.split(',').map((a) => a.toUpperCase())))
  .optional();

/**
 * Aave v3's variables (the chain ones in chain-settings.ts); undefined without AAVE_RPC_URL or
 * ETH_RPC_URL (the lending pool stays simulated). The contract addresses default to Ethereum
 * mainnet's and must be set on another chain.
 */
export function aaveSettings(source: VenueEnv): AaveSettings | undefined {
  const chain = chainSettings(source, 'AAVE');
  if (!chain) return undefined;
  const picked = variable(source, 'AAVE_ASSETS', assets);
  return {
    ...chain,
    pool: mainnetDefault(source, 'AAVE_POOL', chain.chainId, AAVE_V3_ETHEREUM.pool),
    poolAddressesProvider: mainnetDefault(source, 'AAVE_POOL_ADDRESSES_PROVIDER', chain.chainId, AAVE_V3_ETHEREUM.poolAddressesProvider),
    uiPoolDataProvider: mainnetDefault(source, 'AAVE_UI_POOL_DATA_PROVIDER', chain.chainId, AAVE_V3_ETHEREUM.uiPoolDataProvider),
    assets: picked,
  };
}
