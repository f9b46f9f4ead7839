import type { Abi, Address, PublicClient } from 'viem';
import type { MarketDefinition } from '../../domain/market.js';
import { rpcFailureOf } from './chain-rpc.js';

/** Multicall3, deployed at this address on Ethereum and nearly every EVM chain (mds1/multicall). */
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** The ledger keeps 8 decimals: a market's sizes are the token's decimals, at most these. */
const MAX_SIZE_DECIMALS = 8;

/**
 * A token's symbol as the gateway names assets and ledger keys (upper case, as the simulators'
 * are: `wstETH` lists as WSTETH), or undefined when it is not a plain name (a path segment and a
 * ledger key must stay readable, so such a token is not listed).
 */
export function tokenSymbol(raw: string): string | undefined {
  const symbol = raw.trim().toUpperCase();
  return /^[A-Z0-9][A-Z0-9._+-]{0,31}$/.test(symbol) ? symbol : undefined;
}

/** A market of an on-chain venue: its prices are the chain's, so the simulators' parameters are zero. */
export function chainMarket(
  venueId: string,
  m: Pick<MarketDefinition, 'id' | 'asset' | 'quote' | 'kind' | 'priceDecimals'> & { tokenDecimals: number },
): MarketDefinition {
  return {
    id: m.id,
    asset: m.asset,
    quote: m.quote,
    kind: m.kind,
    protocolId: venueId,
    sourceId: venueId,
    priceDecimals: m.priceDecimals,
    sizeDecimals: Math.min(m.tokenDecimals, MAX_SIZE_DECIMALS),
    basePrice: 0,
    volatility: 0,
    volumePerMinute: 0,
    hasOrderBook: false,
  };
}

type Contracts = Parameters<PublicClient['multicall']>[0]['contracts'];
type CallResult = Awaited<ReturnType<typeof multicallAt>>[number];

/**
 * Calls in one Multicall3 `aggregate3` at `blockNumber` (one request, one block), each allowed to
 * fail on its own (a pool that reverts is left out, the others served); when the request itself
 * failed (every call then fails with it), its failure is thrown.
 */
async function multicallAt(client: PublicClient, contracts: Contracts, blockNumber: bigint) {
  const results = await client.multicall({ contracts, blockNumber, allowFailure: true, batchSize: 0, multicallAddress: MULTICALL3 });
  const first = results[0];
  if (first?.status === 'failure' && rpcFailureOf(first.error)) throw first.error;
  return results;
}

/** Each of `functionNames` (argument-less views) on each address in one multicall at `blockNumber`: per address, its results in the names' order. */
export async function callEach(
  client: PublicClient,
  addresses: readonly Address[],
  abi: Abi,
  functionNames: readonly string[],
  blockNumber: bigint,
): Promise<CallResult[][]> {
  const calls = addresses.flatMap((address) => functionNames.map((functionName) => ({ address, abi, functionName })));
  const results = await multicallAt(client, calls, blockNumber);
  return addresses.map((_, i) => results.slice(i * functionNames.length, (i + 1) * functionNames.length));
}
