import type { MarketDefinition } from '../domain/market.js';

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
