import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.js';
import { ADDRESSES, type ChainReplay } from '../../src/venues/chain/replay/start.js';
import { call } from '../support/execution.js';
import { writeBootstrap } from '../support/keys.js';
import { eventually, type VenueGateway } from '../support/venue-gateway.js';
import {
  expectContractStatuses,
  fixedRatio,
  peakPerMinute,
  sourceBecomes,
  sourceOf,
  startChainVenue,
  type ChainVenueUnderTest,
  mineInItsOwnSecond,
} from '../support/chain-venue.js';

/**
 * Uniswap v3 pools read through viem from the local JSON-RPC fake (its chain state is synthetic:
 * no recorded Uniswap answers exist), the gateway configured by its variables as an operator
 * would. Prices and liquidity expected here are computed from the fake's sqrtPriceX96 and L.
 */
const ID = 'uniswap-v3';
const Q96 = 2n ** 96n;
/** The default mainnet pools, as the gateway must name them (the fee tier in every id). */
const POOLS: [id: string, address: Address, base: string][] = [
  ['WETH-USDC-500', ADDRESSES.poolUsdcWeth500, 'WETH'],
  ['WETH-USDC-3000', ADDRESSES.poolUsdcWeth3000, 'WETH'],
  ['WBTC-WETH-3000', ADDRESSES.poolWbtcWeth3000, 'WBTC'],
  ['WETH-USDT-500', ADDRESSES.poolWethUsdt500, 'WETH'],
];

/** Price and quote-side liquidity of a pool from the fake's head block, to the decimals served. */
function expected(fake: ChainReplay, address: Address, base: string, served: { price: string; liquidity: string }) {
  const pool = fake.controls.pool(address);
  const [t0, t1] = [fake.controls.token(pool.token0), fake.controls.token(pool.token1)];
  const baseIs0 = t0.symbol === base;
  const quote = baseIs0 ? t1 : t0;
  const s = pool.sqrtPriceX96;
  // token1 per token0 = s² / 2^192 · 10^(d0 − d1); in quote per base.
  const [pn, pd] = [s * s * 10n ** BigInt(t0.decimals), Q96 * Q96 * 10n ** BigInt(t1.decimals)];
  const [n, d] = baseIs0 ? [pn, pd] : [pd, pn];
  // The quote reserve of the equivalent constant-product pool: y = L·√P, x = L/√P.
  const [ln, ld] = baseIs0 ? [pool.liquidity * s, Q96 * 10n ** BigInt(t1.decimals)] : [pool.liquidity * Q96, s * 10n ** BigInt(t0.decimals)];
  const decimals = (v: string) => v.split('.')[1]?.length ?? 0;
  return { price: fixedRatio(n, d, decimals(served.price)), liquidity: fixedRatio(ln, ld, Math.min(quote.decimals, 8)), quote: quote.symbol };
}

/** Ten significant digits, however large or small the price. */
const significant = (v: string) => v.replace('.', '').replace(/^0+/, '').length;

describe('Uniswap v3 pools from the chain', () => {
  const BUDGET = 300;
  const keys = writeBootstrap();
  let venue: ChainVenueUnderTest;
  let fake: ChainReplay;
  let gw: VenueGateway;
  beforeAll(async () => {
    venue = await startChainVenue('UNISWAP', { budget: BUDGET, blockTimeMs: null, bootstrapPath: keys.path });
    ({ fake, gw } = venue);
    await eventually(async () => (await sourceOf(gw, ID))?.markets === POOLS.length, 8_000, 'the pools');
  });
  afterAll(() => venue?.close());

  it('lists every configured pool with its price from slot0 and its liquidity, exact to the digits served', async () => {
    const pools = (await gw.json('/api/v1/public/markets')).body.data.filter((m: any) => m.kind === 'swap_pool');
    expect(pools.map((m: any) => m.id)).toEqual(POOLS.map(([id]) => id));
    for (const [id, address, base] of POOLS) {
      const market = pools.find((m: any) => m.id === id);
      expect(significant(market.price)).toBe(10);
      const want = expected(fake, address, base, market);
      expect(market).toMatchObject({ asset: base, quote: want.quote, price: want.price, liquidity: want.liquidity, protocol: ID, volume24h: '0' });
    }
    // The asset alone is the first pool listing it.
    expect((await gw.json('/api/v1/public/markets/WBTC')).body.data.id).toBe('WBTC-WETH-3000');
    const venues = Object.fromEntries((await gw.json('/api/v1/public/status')).body.data.venues.map((v: any) => [v.id, v]));
    expect(venues[ID]).toEqual({ id: ID, kind: 'token_swap', mode: 'real', network: 'mainnet', chainId: 1, upstream: new URL(fake.url).host });
    expect(venues['paper-swap']).toBeUndefined();
  });

  it('serves a moved price at the time of its block, and samples it into the candles', async () => {
    fake.controls.setPoolPrice(ADDRESSES.poolUsdcWeth500, 'WETH', '3187.5');
    const block = await mineInItsOwnSecond(fake);
    const body = await eventually(
      async () => {
        const res = await gw.json('/api/v1/public/markets/WETH-USDC-500');
        return res.body.data.price.startsWith('3187.') ? res.body : undefined;
      },
      8_000,
      'the new price',
    );
    const want = expected(fake, ADDRESSES.poolUsdcWeth500, 'WETH', body.data);
    expect(body.data).toMatchObject({ price: want.price, liquidity: want.liquidity });
    expect(body.freshness).toMatchObject({ asOf: new Date(block.timestamp * 1_000).toISOString(), stale: false, sourceStatus: 'healthy' });
    const points = (await gw.json('/api/v1/public/markets/WETH-USDC-500/history?resolution=1m&limit=3')).body.data.points;
    expect(points.at(-1).close).toBe(want.price);
  });

  it('prices a paper swap from the pool: its price, its in-range liquidity and its own fee', async () => {
    const market = (await gw.json('/api/v1/public/markets/WETH-USDC-500')).body.data;
    const order = {
      protocol: ID,
      action: 'swap',
      assetIn: { token: 'USDC', amount: '25000' },
      metadata: { tokenOut: 'WETH', slippageBps: 50 },
      referenceId: 'uni-swap-1',
    };
    const res = await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
    expect(res.status).toBe(200);
    const { quote } = await res.json();
    // x·y = k over the virtual reserves, 0.05 % off the amount in.
    const quoteReserve = new Decimal(market.liquidity);
    const baseReserve = quoteReserve.div(market.price);
    const effective = new Decimal(25_000).mul('0.9995');
    const out = baseReserve.mul(effective).div(quoteReserve.plus(effective)).toDecimalPlaces(8, Decimal.ROUND_DOWN);
    expect(quote).toMatchObject({ marketId: 'WETH-USDC-500', price: market.price, fee: '12.5', feeToken: 'USDC', amountOut: out.toString() });
    // A real pool's price impact: less than 25,000 USDC buys at the served price.
    expect(out.lt(new Decimal(25_000).div(market.price))).toBe(true);
  });

  it('counts its requests in /metrics and stays within its budget', async () => {
    const metrics = await (await gw.get('/metrics')).text();
    expect(metrics).toMatch(/gateway_upstream_requests_total\{venue="uniswap-v3",type="eth_call",outcome="200"\} [1-9]/);
    expect(peakPerMinute(fake.controls.requests())).toBeLessThanOrEqual(BUDGET);
  });
});

describe('a pool that cannot be read, and faults at the node', () => {
  const stranger = '0x000000000000000000000000000000000000dEaD';
  let venue: ChainVenueUnderTest;
  let fake: ChainReplay;
  let gw: VenueGateway;
  beforeAll(async () => {
    venue = await startChainVenue('UNISWAP', { budget: 300, blockTimeMs: 500, env: { UNISWAP_POOLS: `${ADDRESSES.poolWbtcWeth3000},${stranger}` } });
    ({ fake, gw } = venue);
  });
  afterAll(() => venue?.close());
  afterEach(() => fake.controls.clearFaults());

  it('serves the pools it can read, degraded and naming the one it cannot', async () => {
    const s = await sourceBecomes(gw, ID, 'degraded');
    expect(s.markets).toBe(1);
    expect(s.lastError).toContain(`pool ${stranger}: does not answer token0, token1 and fee`);
    expect((await gw.json('/api/v1/public/markets/WBTC-WETH-3000')).body.freshness).toMatchObject({ stale: false, sourceStatus: 'degraded' });
  });

  it('a 429 and a JSON-RPC error end in a true envelope and the reason, then the pools again', async () => {
    for (const [inject, reason] of [
      [() => fake.controls.rateLimitNext(1, 1, { method: 'eth_call' }), /eth_call: 429/],
      [() => fake.controls.rpcErrorNext(2, { code: -32005, message: 'limit exceeded' }, { method: 'eth_call' }), /RPC error -32005: limit exceeded/],
    ] as const) {
      inject();
      const s = await eventually(
        async () => {
          const source = await sourceOf(gw, ID);
          return reason.test(source.lastError ?? '') ? source : undefined;
        },
        8_000,
        String(reason),
      );
      expect(s.status).toBe('degraded');
      await expectContractStatuses(gw, 'WBTC-WETH-3000');
      await eventually(async () => !reason.test((await sourceOf(gw, ID)).lastError ?? ''), 8_000, 'recovery');
    }
  });

  it('a wrong chain id: down at once and nothing served, until the node serves the configured chain', async () => {
    const { fake: wrong, gw: other, close } = await startChainVenue('UNISWAP', { budget: 300, blockTimeMs: 500, chainId: 137 });
    try {
      const down = await sourceBecomes(other, ID, 'down');
      expect(down.lastError).toMatch(/chain 137, not the configured chain 1/);
      expect((await other.json('/api/v1/public/markets/WETH-USDC-500')).status).toBe(404);
      wrong.controls.setChainId(1);
      await sourceBecomes(other, ID, 'healthy');
      expect((await other.json('/api/v1/public/markets/WETH-USDC-500')).status).toBe(200);
    } finally {
      await close();
    }
  });
});
