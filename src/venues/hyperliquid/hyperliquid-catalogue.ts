import type { MarketDefinition } from '../../domain/market.js';

/** A perpetual of Hyperliquid's universe, as `meta` lists it. */
export interface UniverseAsset {
  name: string;
  szDecimals: number;
  maxLeverage: number;
  isDelisted?: true;
}

/** Hyperliquid prices carry at most 6 decimals less the asset's size decimals (and five significant figures). */
const MAX_PERP_DECIMALS = 6;

/** The market id of a Hyperliquid perpetual: `<coin>-PERP`, as the simulated perpetuals name theirs. */
export const perpMarketId = (coin: string) => `${coin}-PERP`;

/**
 * The markets Hyperliquid lists now: every perpetual of its universe that is not delisted, with
 * the venue's own decimals. Ids are `<coin>-PERP`; the venue's index of each coin (its asset id
 * in orders) is kept with the catalogue.
 */
export function perpCatalogue(universe: readonly UniverseAsset[], venueId: string): { markets: MarketDefinition[]; assetIndex: Map<string, number> } {
  const markets: MarketDefinition[] = [];
  const assetIndex = new Map<string, number>();
  universe.forEach((asset, index) => {
    if (asset.isDelisted) return;
    assetIndex.set(asset.name, index);
    markets.push({
      id: perpMarketId(asset.name),
      asset: asset.name,
      quote: 'USDC',
      kind: 'perpetual',
      protocolId: venueId,
      sourceId: venueId,
      priceDecimals: Math.max(0, MAX_PERP_DECIMALS - asset.szDecimals),
      sizeDecimals: asset.szDecimals,
      // Only the simulators use these: a real venue's prices are its own.
      basePrice: 0,
      volatility: 0,
      volumePerMinute: 0,
      hasOrderBook: true,
    });
  });
  return { markets, assetIndex };
}
