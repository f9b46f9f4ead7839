import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAddress, type Address } from 'viem';
import { FakeChain } from './chain.js';
import { createRpcHandler, type RecordedRpc, type RpcFault, type RpcFaultFilter, type ServerState } from './server.js';
import { sqrtPriceX96For, type FakePool, type FakeReserve, type FakeToken } from './state.js';

export { ADDRESSES, rayFromPercent, scaled } from './state.js';
export type { FakePool, FakeReserve, FakeToken } from './state.js';
export type { RecordedRpc, RpcFaultFilter } from './server.js';

/** A mined block: its number and timestamp (seconds). */
export interface MinedBlock {
  number: bigint;
  timestamp: number;
}

/** What a test does to the fake chain: move its state, mine, break its answers, and read what it was asked. */
export interface ChainReplayControls {
  setChainId(chainId: number): void;
  /** Seals the pending state (what the setters changed) into a new block. */
  mine(): MinedBlock;
  head(): MinedBlock;
  /** Changes an Aave reserve (by symbol) in the pending state. */
  setReserve(symbol: string, change: Partial<Omit<FakeReserve, 'underlyingAsset' | 'symbol' | 'decimals'>>): void;
  /** An Aave reserve and the market reference currency, as of the head block. */
  reserve(symbol: string): FakeReserve;
  baseCurrency(): { marketReferenceCurrencyUnit: bigint; marketReferenceCurrencyPriceInUsd: bigint };
  /** Moves a pool's price (pending) to `price` of the other token per `base` token; answers the sqrtPriceX96 set. */
  setPoolPrice(pool: Address, base: string, price: string): bigint;
  setPool(pool: Address, change: Partial<FakePool>): void;
  /** A pool as of the head block. */
  pool(pool: Address): FakePool;
  token(token: Address): FakeToken;
  rateLimitNext(times: number, retryAfterSeconds: number, filter?: RpcFaultFilter): void;
  serverErrorNext(times: number, status?: number, filter?: RpcFaultFilter): void;
  hangNext(times: number, filter?: RpcFaultFilter): void;
  delayNext(times: number, ms: number, filter?: RpcFaultFilter): void;
  malformedJsonNext(times: number, filter?: RpcFaultFilter): void;
  wrongContentTypeNext(times: number, filter?: RpcFaultFilter): void;
  rpcErrorNext(times: number, error: { code: number; message: string }, filter?: RpcFaultFilter): void;
  clearFaults(): void;
  requests(): RecordedRpc[];
  clearRequests(): void;
}

export interface ChainReplay {
  /** The JSON-RPC URL (http://127.0.0.1:<port>/). */
  url: string;
  controls: ChainReplayControls;
  close(): Promise<void>;
}

export interface ChainReplayOptions {
  /** The chain id `eth_chainId` answers (default 1). */
  chainId?: number;
  /** A new block every this many ms (default 12,000, as Ethereum); null mines only on `mine()`. */
  blockTimeMs?: number | null;
}

/**
 * A local JSON-RPC 2.0 node for the chain venues' tests (Aave v3 and Uniswap v3 through viem),
 * on 127.0.0.1 at an ephemeral port. Its state is SYNTHETIC (state.ts): no recorded answers of
 * these contracts exist to replay.
 */
export async function startChainReplay(options: ChainReplayOptions = {}): Promise<ChainReplay> {
  const chain = new FakeChain(options.chainId ?? 1);
  const state: ServerState = { chain, faults: [], requests: [], seq: 1, hung: new Set<ServerResponse>() };
  const server = createServer(createRpcHandler(state));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const blockTimeMs = options.blockTimeMs === undefined ? 12_000 : options.blockTimeMs;
  const miner = blockTimeMs === null ? undefined : setInterval(() => chain.mine(), blockTimeMs);
  miner?.unref();

  const mined = (b = chain.head()): MinedBlock => ({ number: b.number, timestamp: Number(b.timestamp) });
  const fault = (fault: RpcFault, times: number, filter: RpcFaultFilter = {}) => {
    if (times > 0) state.faults.push({ fault, remaining: times, filter });
  };
  const pendingReserve = (symbol: string) => {
    const r = chain.pending.aave.reserves.find((x) => x.symbol === symbol);
    if (!r) throw new Error(`no reserve ${symbol}`);
    return r;
  };
  const pendingPool = (address: Address) => {
    const p = chain.pending.pools.get(getAddress(address));
    if (!p) throw new Error(`no pool ${address}`);
    return p;
  };

  const controls: ChainReplayControls = {
    setChainId: (id) => void (chain.chainId = id),
    mine: () => mined(chain.mine()),
    head: () => mined(),
    setReserve: (symbol, change) => void Object.assign(pendingReserve(symbol), change),
    reserve: (symbol) => ({ ...chain.head().state.aave.reserves.find((r) => r.symbol === symbol)! }),
    baseCurrency: () => ({ ...chain.head().state.aave }),
    setPoolPrice: (address, base, price) => {
      const p = pendingPool(address);
      const baseToken = [p.token0, p.token1].find((t) => chain.pending.tokens.get(t)?.symbol === base);
      if (!baseToken) throw new Error(`pool ${address} has no ${base}`);
      p.sqrtPriceX96 = sqrtPriceX96For(p, chain.pending.tokens, baseToken, price);
      return p.sqrtPriceX96;
    },
    setPool: (address, change) => void Object.assign(pendingPool(address), change),
    pool: (address) => ({ ...chain.head().state.pools.get(getAddress(address))! }),
    token: (address) => ({ ...chain.head().state.tokens.get(getAddress(address))! }),
    rateLimitNext: (times, retryAfterSeconds, filter) => fault({ kind: 'rateLimit', retryAfterSeconds }, times, filter),
    serverErrorNext: (times, status = 500, filter) => fault({ kind: 'serverError', status }, times, filter),
    hangNext: (times, filter) => fault({ kind: 'hang' }, times, filter),
    delayNext: (times, ms, filter) => fault({ kind: 'delay', ms }, times, filter),
    malformedJsonNext: (times, filter) => fault({ kind: 'malformedJson' }, times, filter),
    wrongContentTypeNext: (times, filter) => fault({ kind: 'wrongContentType' }, times, filter),
    rpcErrorNext: (times, error, filter) => fault({ kind: 'rpcError', ...error }, times, filter),
    clearFaults: () => void state.faults.splice(0),
    requests: () => state.requests.map((r) => ({ ...r })),
    clearRequests: () => void state.requests.splice(0),
  };

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    controls,
    async close() {
      clearInterval(miner);
      for (const res of state.hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
