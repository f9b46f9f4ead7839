import type { InfoClient } from '@nktkas/hyperliquid';
import type { UniverseAsset } from './hyperliquid-catalogue.js';

/** A perpetual as an order names it: its index in `meta.universe` (the order's `a`), its size decimals and maximum leverage. */
export interface VenueAsset {
  index: number;
  name: string;
  szDecimals: number;
  maxLeverage: number;
}

const FRESH_MS = 5 * 60_000;
/** An unknown coin asks the venue again at most this often. */
const MISS_MS = 5_000;

/** The venue's default leverage of a position opened without setting one: 20x cross, or the asset's maximum if lower. */
export const defaultLeverage = (asset: Pick<VenueAsset, 'maxLeverage'>) => Math.min(20, asset.maxLeverage);

/**
 * The venue's perpetuals by name, from `meta` (read again every five minutes, and when an order
 * names a coin not seen yet): an asset's index moves only with a new listing at the end.
 */
export class HyperliquidAssets {
  private byName = new Map<string, VenueAsset>();
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly info: InfoClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** The asset of `coin`; throws when the venue does not list it. */
  async of(coin: string): Promise<VenueAsset> {
    const age = this.now() - this.readAt;
    if (age > FRESH_MS || (!this.byName.has(coin) && age > MISS_MS)) await this.read();
    const asset = this.byName.get(coin);
    if (!asset) throw new Error(`Hyperliquid does not list ${coin}`);
    return asset;
  }

  private read(): Promise<void> {
    this.reading ??= this.info
      .meta()
      .then((meta) => {
        const universe = meta.universe as UniverseAsset[];
        this.byName = new Map(
          universe.flatMap((a, index) => (a.isDelisted ? [] : [[a.name, { index, name: a.name, szDecimals: a.szDecimals, maxLeverage: a.maxLeverage }]])),
        );
        this.readAt = this.now();
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}
