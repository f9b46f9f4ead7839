import type { MarketDefinition } from '../../domain/market.js';

type Row = Omit<MarketDefinition, 'protocolId' | 'sourceId' | 'kind' | 'hasOrderBook'>;

function listing(protocolId: string, kind: MarketDefinition['kind'], hasOrderBook: boolean, rows: Row[]): MarketDefinition[] {
  return rows.map((r) => ({ ...r, protocolId, sourceId: protocolId, kind, hasOrderBook }));
}

/**
 * The simulated venues' listings. Order matters: an asset symbol resolves to the first market
 * listing it (BTC → BTC-PERP, ETH → ETH-PERP).
 */
export const SIMULATED_MARKETS: readonly MarketDefinition[] = [
  ...listing('paper-perps', 'perpetual', true, [
    { id: 'BTC-PERP', asset: 'BTC', quote: 'USDC', priceDecimals: 1, sizeDecimals: 4, basePrice: 64_000, volatility: 0.08, volumePerMinute: 2_500_000 },
    { id: 'ETH-PERP', asset: 'ETH', quote: 'USDC', priceDecimals: 2, sizeDecimals: 3, basePrice: 3_100, volatility: 0.1, volumePerMinute: 1_200_000 },
    { id: 'SOL-PERP', asset: 'SOL', quote: 'USDC', priceDecimals: 3, sizeDecimals: 2, basePrice: 145, volatility: 0.14, volumePerMinute: 400_000 },
  ]),
  ...listing('paper-equities', 'equity', true, [
    { id: 'AAPL-USD', asset: 'AAPL', quote: 'USD', priceDecimals: 2, sizeDecimals: 0, basePrice: 228, volatility: 0.05, volumePerMinute: 900_000 },
    { id: 'MSFT-USD', asset: 'MSFT', quote: 'USD', priceDecimals: 2, sizeDecimals: 0, basePrice: 415, volatility: 0.05, volumePerMinute: 800_000 },
    { id: 'NVDA-USD', asset: 'NVDA', quote: 'USD', priceDecimals: 2, sizeDecimals: 0, basePrice: 135, volatility: 0.09, volumePerMinute: 1_500_000 },
  ]),
  ...listing('paper-swap', 'swap_pool', false, [
    { id: 'WETH-USDC', asset: 'WETH', quote: 'USDC', priceDecimals: 2, sizeDecimals: 6, basePrice: 3_100, volatility: 0.1, volumePerMinute: 150_000 },
    { id: 'WBTC-USDC', asset: 'WBTC', quote: 'USDC', priceDecimals: 1, sizeDecimals: 8, basePrice: 64_000, volatility: 0.08, volumePerMinute: 90_000 },
  ]),
  ...listing('paper-lending', 'lending', false, [
    { id: 'USDC-LEND', asset: 'USDC', quote: 'USD', priceDecimals: 4, sizeDecimals: 2, basePrice: 1, volatility: 0.001, volumePerMinute: 50_000 },
    { id: 'WETH-LEND', asset: 'WETH', quote: 'USD', priceDecimals: 2, sizeDecimals: 6, basePrice: 3_100, volatility: 0.1, volumePerMinute: 20_000 },
  ]),
];

/** Today's catalogue size: the listings above. */
export const DEFAULT_MARKET_COUNT = SIMULATED_MARKETS.length;

/** Shares of generated listings per venue, as a realistic catalogue is mostly perpetuals. */
const GENERATED: { protocolId: string; kind: MarketDefinition['kind']; hasOrderBook: boolean; share: number }[] = [
  { protocolId: 'paper-perps', kind: 'perpetual', hasOrderBook: true, share: 0.55 },
  { protocolId: 'paper-equities', kind: 'equity', hasOrderBook: true, share: 0.25 },
  { protocolId: 'paper-swap', kind: 'swap_pool', hasOrderBook: false, share: 0.15 },
  { protocolId: 'paper-lending', kind: 'lending', hasOrderBook: false, share: 0.05 },
];

/** Deterministic value in [0, 1) for a listing number and a salt (same every run). */
function unit(n: number, salt: number): number {
  let x = Math.imul(n + 1, 0x9e3779b1) ^ Math.imul(salt, 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d);
  x = Math.imul(x ^ (x >>> 12), 0x297a2d39);
  return ((x ^ (x >>> 15)) >>> 0) / 4294967296;
}

/** The n-th generated listing (n from 0): a synthetic symbol on one of the four venues. */
function generatedListing(n: number): MarketDefinition {
  const pick = unit(n, 1);
  let acc = 0;
  const venue = GENERATED.find((g) => (acc += g.share) > pick) ?? GENERATED[0]!;
  const asset = `S${String(n + 1).padStart(4, '0')}`;
  // Prices from 0.05 to about 50,000, log-uniform; decimals so a tick is about 1e-4 of the price.
  const basePrice = Number((0.05 * 10 ** (unit(n, 2) * 6)).toPrecision(4));
  const priceDecimals = Math.max(0, Math.min(6, 4 - Math.floor(Math.log10(basePrice))));
  const row = {
    asset,
    basePrice,
    priceDecimals,
    sizeDecimals: venue.kind === 'equity' ? 0 : Math.max(0, Math.min(8, Math.floor(Math.log10(basePrice)) + 2)),
    volatility: Number((0.03 + unit(n, 3) * 0.15).toFixed(3)),
    volumePerMinute: Math.round(10_000 + unit(n, 4) * 900_000),
  };
  const id =
    venue.kind === 'perpetual' ? `${asset}-PERP` : venue.kind === 'equity' ? `${asset}-USD` : venue.kind === 'swap_pool' ? `${asset}-USDC` : `${asset}-LEND`;
  const quote = venue.kind === 'perpetual' || venue.kind === 'swap_pool' ? 'USDC' : 'USD';
  return { ...row, id, quote, protocolId: venue.protocolId, sourceId: venue.protocolId, kind: venue.kind, hasOrderBook: venue.hasOrderBook };
}

/**
 * A catalogue of `count` markets (GATEWAY_SIM_MARKETS): today's listings first, then generated
 * ones across the four venues, the same on every run, so benchmarks and tests can run at a real
 * catalogue's size. Fewer than today's listings keeps the first `count` of them.
 */
export function simulatedCatalogue(count = DEFAULT_MARKET_COUNT): MarketDefinition[] {
  const base = SIMULATED_MARKETS.slice(0, count);
  return [...base, ...Array.from({ length: Math.max(0, count - base.length) }, (_, n) => generatedListing(n))];
}
