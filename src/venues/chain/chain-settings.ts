import { getAddress, isAddress, type Address } from 'viem';
import { z } from 'zod';
import type { VenueEnv } from '../venue-module.js';

/** Ethereum mainnet: the chain every default contract address of the chain venues belongs to. */
export const MAINNET_CHAIN_ID = 1;

/**
 * Requests a poll sends once the venue is set up: the latest block, then (when it is a new one)
 * one eth_call at it (a data provider or Multicall3). The first poll also checks the chain and
 * reads what never changes, and the chain is checked again every ten minutes.
 */
export const REQUESTS_PER_POLL = 2;

/** Names /api/v1/public/status gives the chains it knows; any other is `chain <id>`. */
const CHAIN_NAMES: Readonly<Record<number, string>> = {
  1: 'mainnet',
  10: 'optimism',
  137: 'polygon',
  8453: 'base',
  42161: 'arbitrum',
  11155111: 'sepolia',
};

export const chainName = (chainId: number): string => CHAIN_NAMES[chainId] ?? `chain ${chainId}`;

const rpcUrl = z.string().refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'expected an http(s) JSON-RPC URL');
const chainId = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const count = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/** A contract address (EIP-55 checksum not required); kept in its checksummed form. */
export const contractAddress = z
  .string()
  .refine((a) => isAddress(a, { strict: false }), 'expected a 0x-prefixed 20-byte address')
  .transform((a): Address => getAddress(a));

/** One variable read through its schema; a bad value throws naming the variable (never echoing it: a URL may hold a key). */
export function variable<T extends z.ZodType>(source: VenueEnv, name: string, schema: T): z.output<T> {
  const parsed = schema.safeParse(source[name]);
  if (!parsed.success) throw new Error(`Invalid configuration: ${name}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

/** What an on-chain venue reads with: its RPC, the chain it must be, and its pace. */
export interface ChainSettings {
  rpcUrl: string;
  /** The chain the RPC must answer `eth_chainId` with. */
  chainId: number;
  pollMs: number;
  /** JSON-RPC requests per minute this venue may send (RPC providers limit them). */
  requestsPerMinute: number;
  timeoutMs: number;
}

/**
 * The chain variables of one venue (`AAVE`, `UNISWAP`), each falling back to the shared one:
 * `<P>_RPC_URL` else `ETH_RPC_URL` (one node for both venues), `<P>_CHAIN_ID` else `ETH_CHAIN_ID`
 * else 1, and the venue's own `<P>_POLL_MS`, `<P>_REQUESTS_PER_MINUTE`, `<P>_TIMEOUT_MS`.
 * Undefined without an RPC URL (the simulator stays); a variable of the venue set without one
 * throws naming it, as does a poll pace the budget cannot pay for.
 */
export function chainSettings(source: VenueEnv, prefix: string): ChainSettings | undefined {
  const url = variable(source, `${prefix}_RPC_URL`, rpcUrl.optional()) ?? variable(source, 'ETH_RPC_URL', rpcUrl.optional());
  if (url === undefined) {
    const stray = Object.keys(source).find((k) => k.startsWith(`${prefix}_`) && source[k] !== undefined);
    if (stray) throw new Error(`Invalid configuration: ${stray} is set but neither ${prefix}_RPC_URL nor ETH_RPC_URL is`);
    return undefined;
  }
  const settings: ChainSettings = {
    rpcUrl: url,
    chainId: variable(source, `${prefix}_CHAIN_ID`, chainId.optional()) ?? variable(source, 'ETH_CHAIN_ID', chainId.default(MAINNET_CHAIN_ID)),
    // One Ethereum block (12 s): a faster poll mostly sees the same block again.
    pollMs: variable(source, `${prefix}_POLL_MS`, count(250, 300_000, 12_000)),
    requestsPerMinute: variable(source, `${prefix}_REQUESTS_PER_MINUTE`, count(10, 100_000, 60)),
    timeoutMs: variable(source, `${prefix}_TIMEOUT_MS`, count(500, 60_000, 10_000)),
  };
  const perMinute = REQUESTS_PER_POLL * Math.ceil(60_000 / settings.pollMs);
  if (perMinute > settings.requestsPerMinute) {
    throw new Error(
      `Invalid configuration: ${prefix}_POLL_MS=${settings.pollMs} needs ${perMinute} requests a minute, ` +
        `more than ${prefix}_REQUESTS_PER_MINUTE=${settings.requestsPerMinute}: poll less often or raise the budget`,
    );
  }
  return settings;
}

/** A contract address variable whose default is Ethereum mainnet's: on another chain it must be set. */
export function mainnetDefault(source: VenueEnv, name: string, chain: number, fallback: Address): Address {
  const set = variable(source, name, contractAddress.optional());
  if (set) return set;
  if (chain !== MAINNET_CHAIN_ID) throw new Error(`Invalid configuration: ${name} must be set on chain ${chain} (its default is Ethereum mainnet's)`);
  return fallback;
}
