import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESSES, rayFromPercent, scaled, startChainReplay, type ChainReplay } from '../../src/venues/chain/replay/start.js';
import { call } from '../support/execution.js';
import { writeBootstrap } from '../support/keys.js';
import { eventually, startVenueGateway, type VenueGateway } from '../support/venue-gateway.js';
import {
  chainEnv,
  expectContractStatuses,
  expectedApyPercent,
  fixedRatio,
  peakPerMinute,
  sourceBecomes,
  sourceOf,
  startChainVenue,
  type ChainVenueUnderTest,
  mineInItsOwnSecond,
} from '../support/chain-venue.js';

/**
 * Aave v3 reserves read through viem from the local JSON-RPC fake (its chain state is synthetic:
 * no recorded Aave answers exist), the gateway configured by its variables as an operator would.
 * Every expected figure is computed here from the fake's state, apart from the gateway's code.
 */
const ID = 'aave-v3';
const RAY = 10n ** 27n;
const ACTIVE = ['WETH', 'wstETH', 'WBTC', 'USDC', 'DAI', 'USDT'];

/** What the gateway must publish for a reserve, from the fake's head block. */
function expected(fake: ChainReplay, symbol: string) {
  const r = fake.controls.reserve(symbol);
  const base = fake.controls.baseCurrency();
  const debt = (r.totalScaledVariableDebt * r.variableBorrowIndex + RAY / 2n) / RAY;
  return {
    id: `${symbol.toUpperCase()}-LEND`,
    asset: symbol.toUpperCase(),
    price: fixedRatio(r.priceInMarketReferenceCurrency * base.marketReferenceCurrencyPriceInUsd, base.marketReferenceCurrencyUnit * 10n ** 8n, 8),
    supplyApy: expectedApyPercent(r.liquidityRate),
    borrowApy: expectedApyPercent(r.variableBorrowRate),
    utilization: fixedRatio(debt, debt + r.virtualUnderlyingBalance, 4),
  };
}

describe('Aave v3 reserves from the chain', () => {
  const BUDGET = 300;
  const keys = writeBootstrap();
  let venue: ChainVenueUnderTest;
  let fake: ChainReplay;
  let gw: VenueGateway;
  beforeAll(async () => {
    venue = await startChainVenue('AAVE', { budget: BUDGET, blockTimeMs: null, bootstrapPath: keys.path });
    ({ fake, gw } = venue);
    await eventually(async () => (await sourceOf(gw, ID))?.markets === ACTIVE.length, 8_000, 'the reserves');
  });
  afterAll(() => venue?.close());

  it('lists every active reserve as <SYMBOL>-LEND with its APYs, utilisation and oracle price as the chain says, and says the venue is real', async () => {
    const lending = (await gw.json('/api/v1/public/markets')).body.data.filter((m: any) => m.kind === 'lending');
    expect(lending.map((m: any) => m.id)).toEqual(ACTIVE.map((s) => `${s.toUpperCase()}-LEND`)); // LUSD is inactive
    for (const symbol of ACTIVE) {
      const market = lending.find((m: any) => m.asset === symbol.toUpperCase());
      expect(market).toMatchObject({ ...expected(fake, symbol), quote: 'USD', protocol: ID, hasOrderBook: false, volume24h: '0' });
    }
    const venues = Object.fromEntries((await gw.json('/api/v1/public/status')).body.data.venues.map((v: any) => [v.id, v]));
    expect(venues[ID]).toEqual({ id: ID, kind: 'lending', mode: 'real', network: 'mainnet', chainId: 1, upstream: new URL(fake.url).host });
    expect(venues['paper-lending']).toBeUndefined();
    expect(venues['paper-swap']).toMatchObject({ mode: 'simulated' }); // only AAVE_RPC_URL is set
    expect((await gw.json(`/api/v1/public/protocols/${ID}`)).status).toBe(200);
  });

  it('serves a moved rate and price at the time of the block they were read at', async () => {
    fake.controls.setReserve('USDC', {
      liquidityRate: rayFromPercent('7.25'),
      variableBorrowRate: rayFromPercent('9.8125'),
      virtualUnderlyingBalance: scaled('100000000', 6),
      priceInMarketReferenceCurrency: scaled('1.0003', 8),
    });
    const block = await mineInItsOwnSecond(fake);
    const want = expected(fake, 'USDC');
    expect(want.supplyApy).toBe('7.5193'); // (1 + 0.0725/31536000)^31536000 − 1: a check of the test's own arithmetic
    const body = await eventually(
      async () => {
        const res = await gw.json('/api/v1/public/markets/USDC');
        return res.body.data.supplyApy === want.supplyApy ? res.body : undefined;
      },
      8_000,
      'the new rate',
    );
    expect(body.data).toMatchObject(want);
    expect(body.freshness).toMatchObject({ asOf: new Date(block.timestamp * 1_000).toISOString(), stale: false, sourceStatus: 'healthy' });
    const points = (await gw.json('/api/v1/public/markets/USDC-LEND/history?resolution=1m&limit=3')).body.data.points;
    expect(points.at(-1).close).toBe(want.price); // candles are sampled from the observed prices
  });

  it('prices a paper supply from the real quote', async () => {
    const market = (await gw.json('/api/v1/public/markets/WETH-LEND')).body.data;
    const order = { protocol: ID, action: 'supply', assetIn: { token: 'WETH', amount: '1.5' }, referenceId: 'aave-supply-1' };
    const res = await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order);
    expect(res.status).toBe(200);
    const { quote } = await res.json();
    // 1.5 × price, rounded up to the cent.
    const cents = (scaled(market.price, 8) * 15n + 10n ** 7n - 1n) / 10n ** 7n;
    expect(quote).toMatchObject({ marketId: 'WETH-LEND', price: market.price, notionalUsd: fixedRatio(cents, 100n, 2) });
    expect(quote.balanceChanges).toEqual(
      expect.arrayContaining([
        { token: 'WETH', amount: '-1.5' },
        { token: 'supplied:WETH', amount: '1.5' },
      ]),
    );
  });

  it('counts its requests in /metrics and stays within its budget', async () => {
    const metrics = await (await gw.get('/metrics')).text();
    expect(metrics).toMatch(/gateway_upstream_requests_total\{venue="aave-v3",type="eth_call",outcome="200"\} [1-9]/);
    expect(metrics).toMatch(/gateway_upstream_requests_total\{venue="aave-v3",type="eth_getBlockByNumber",outcome="200"\} [1-9]/);
    expect(peakPerMinute(fake.controls.requests())).toBeLessThanOrEqual(BUDGET);
  });
});

describe('faults at the node', () => {
  let venue: ChainVenueUnderTest;
  let fake: ChainReplay;
  let gw: VenueGateway;
  beforeAll(async () => {
    venue = await startChainVenue('AAVE', { budget: 300, blockTimeMs: 500 });
    ({ fake, gw } = venue);
    await sourceBecomes(gw, ID, 'healthy');
  });
  afterAll(() => venue?.close());
  afterEach(async () => {
    fake.controls.clearFaults();
    await sourceBecomes(gw, ID, 'healthy', 10_000);
  });

  it('a 429 with Retry-After: degraded, every request paused by it (no retry storm), then healthy again', async () => {
    fake.controls.rateLimitNext(1, 2);
    const degraded = await sourceBecomes(gw, ID, 'degraded');
    expect(degraded.lastError).toMatch(/429/);
    await expectContractStatuses(gw, 'USDC');
    await sourceBecomes(gw, ID, 'healthy');
    const requests = fake.controls.requests();
    const limited = requests.find((r) => r.fault === 'rateLimit')!;
    const next = requests.find((r) => r.seq > limited.seq)!;
    expect(next.at - limited.at).toBeGreaterThanOrEqual(1_900);
  });

  it('500s: degraded at the first, down after three in a row, the markets then stale', async () => {
    fake.controls.serverErrorNext(3, 500);
    await sourceBecomes(gw, ID, 'down');
    const usdc = (await gw.json('/api/v1/public/markets/USDC-LEND')).body;
    expect(usdc.freshness).toMatchObject({ stale: true, staleReason: 'source_down', sourceStatus: 'down' });
    expect((await sourceOf(gw, ID)).lastError).toMatch(/500/);
    await expectContractStatuses(gw, 'USDC');
  });

  it('a hang past the timeout, malformed JSON, a page instead of JSON, a JSON-RPC error and a slow answer: degraded with the reason, never a crash', async () => {
    // Twice each (two failed polls are still degraded, three would be down), so a loaded machine cannot miss the state.
    const cases: [() => void, RegExp][] = [
      [() => fake.controls.hangNext(2), /no answer within 1500 ms/],
      [() => fake.controls.malformedJsonNext(2), /not valid JSON/],
      [() => fake.controls.wrongContentTypeNext(2), /answered text\/html, not JSON/],
      [() => fake.controls.rpcErrorNext(2, { code: -32000, message: 'header not found' }), /RPC error -32000: header not found/],
      [() => fake.controls.delayNext(2, 1_000, { method: 'eth_getBlockByNumber' }), /slow/],
    ];
    for (const [inject, reason] of cases) {
      inject();
      const s = await sourceBecomes(gw, ID, 'degraded');
      expect(s.lastError).toMatch(reason);
      expect(s.lastError).not.toMatch(/127\.0\.0\.1|<html|at \w+ \(/);
      await expectContractStatuses(gw, 'USDC');
      await sourceBecomes(gw, ID, 'healthy');
    }
  });
});

describe('the node is not what the venue was configured for', () => {
  let fake: ChainReplay;
  let gw: VenueGateway | undefined;
  beforeAll(async () => {
    fake = await startChainReplay({ chainId: 5, blockTimeMs: 500 });
  });
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });
  afterAll(() => fake?.close());

  it('a wrong chain id: down at once with the reason, nothing served, until the node serves the configured chain', async () => {
    gw = await startVenueGateway({ venueEnv: chainEnv('AAVE', fake.url, 300) });
    const down = await sourceBecomes(gw, ID, 'down');
    expect(down).toMatchObject({ consecutiveFailures: 1, markets: 0 });
    expect(down.lastError).toMatch(/chain 5, not the configured chain 1/);
    const usdc = await gw.json('/api/v1/public/markets/USDC-LEND');
    expect(usdc.status).toBe(404);
    expect(usdc.body.freshness.stale).toBe(true);
    expect((await gw.json('/api/v1/public/markets')).body.data.some((m: any) => m.protocol === ID)).toBe(false);
    expect(fake.controls.requests().every((r) => r.method === 'eth_chainId')).toBe(true); // nothing else was read
    fake.controls.setChainId(1);
    await sourceBecomes(gw, ID, 'healthy');
    expect((await gw.json('/api/v1/public/markets/USDC-LEND')).status).toBe(200);
    fake.controls.setChainId(5);
  });

  it('an addresses provider that names another pool: down, with both addresses', async () => {
    fake.controls.setChainId(1);
    const other = '0x794a61358D6845594F94dc1DB02A252b5b4814aD';
    gw = await startVenueGateway({ venueEnv: chainEnv('AAVE', fake.url, 300, { AAVE_POOL: other }) });
    const down = await sourceBecomes(gw, ID, 'down');
    expect(down.lastError).toContain(`names the pool ${ADDRESSES.aavePool}, not AAVE_POOL ${other}`);
    fake.controls.setChainId(5);
  });

  it('a wrongly set variable stops the start naming it (never echoing a URL), and none at all keeps the simulator', async () => {
    await expect(startVenueGateway({ venueEnv: { AAVE_RPC_URL: 'wss://node.example/v3/SECRET' } })).rejects.toThrow(
      /AAVE_RPC_URL: expected an http\(s\) JSON-RPC URL$/,
    );
    await expect(startVenueGateway({ venueEnv: { AAVE_POOL: ADDRESSES.aavePool } })).rejects.toThrow(
      /AAVE_POOL is set but neither AAVE_RPC_URL nor ETH_RPC_URL is/,
    );
    await expect(startVenueGateway({ venueEnv: { AAVE_RPC_URL: fake.url, AAVE_CHAIN_ID: '10' } })).rejects.toThrow(/AAVE_POOL must be set on chain 10/);
    await expect(startVenueGateway({ venueEnv: chainEnv('AAVE', fake.url, 100, { AAVE_POLL_MS: '1000' }) })).rejects.toThrow(
      /AAVE_POLL_MS=1000 needs 120 requests/,
    );
    gw = await startVenueGateway({ venueEnv: {} });
    const venues = (await gw.json('/api/v1/public/status')).body.data.venues.map((v: any) => v.id);
    expect(venues).toContain('paper-lending');
    expect(venues).not.toContain(ID);
  });
});

describe('the request budget', () => {
  it('holds whatever ingest asks: a burst of polls waits for it instead of passing it', async () => {
    const { fake, gw, close } = await startChainVenue('AAVE', { budget: 10, blockTimeMs: null, env: { AAVE_POLL_MS: '12000' } });
    try {
      await sourceBecomes(gw, ID, 'healthy');
      const started = Date.now();
      while (Date.now() - started < 3_000) {
        fake.controls.mine();
        void gw.app.services.ingest.pollAll().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 100));
      }
      // Thirty new blocks asked for sixty requests; ten a minute were allowed.
      expect(fake.controls.requests().length).toBeLessThanOrEqual(10);
      expect(peakPerMinute(fake.controls.requests())).toBeLessThanOrEqual(10);
    } finally {
      await close();
    }
  });
});
