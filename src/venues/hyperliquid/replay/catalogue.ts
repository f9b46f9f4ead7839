import { roundPrice } from './numbers.js';
import { sequence } from './random.js';
import type { RecordedData } from './recorded.js';
import type { MarginTable, UniverseEntry } from './wire.js';

/**
 * The perp universe: the 28 recorded assets first (in the recorded order, so BTC is asset 0 as on
 * mainnet), then synthesized ones up to `perpCount`. The asset id an order names is the index in
 * this list; delisting keeps the entry (with `isDelisted: true`) and so keeps every index, as the
 * venue does.
 */
export interface PerpAsset {
  name: string;
  szDecimals: number;
  maxLeverage: number;
  marginTableId: number;
  onlyIsolated?: true;
  marginMode?: 'strictIsolated' | 'noCross';
  isDelisted?: true;
  /** The mid the synthesized paths are anchored on: the recorded mid, or a synthesized one. */
  referencePx: number;
  /** Notional traded a day, in USD, for synthesized volumes. */
  dailyNotional: number;
  /** First candle and funding time. */
  listedAt: number;
  /** Last candle time, when delisted. */
  delistedAt?: number;
  origin: 'recorded' | 'synthesized' | 'listed';
}

/** When the recorded assets are taken to have been listed (before every recorded candle and funding item). */
export const RECORDED_LISTING_TIME = Date.UTC(2023, 1, 1);
const SYNTH_LISTING_FROM = Date.UTC(2023, 5, 1);
const SYNTH_LISTING_TO = Date.UTC(2025, 5, 1);

/** The recorded tables (ids 50 and 51, from the metaAndAssetCtxs recording), or their recorded contents when absent. */
export function marginTables(data: RecordedData): [number, MarginTable][] {
  if (data.marginTables.length > 0) return data.marginTables;
  return [
    [50, { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: 50 }] }],
    [
      51,
      {
        description: 'tiered 10x',
        marginTiers: [
          { lowerBound: '0.0', maxLeverage: 10 },
          { lowerBound: '3000000.0', maxLeverage: 5 },
        ],
      },
    ],
  ];
}

/** szDecimals for a price, by the rule the recorded universe follows (BTC 30k → 5, ETH 1.9k → 4, SOL 26 → 2, DOGE 0.07 → 0). */
export function szDecimalsFor(px: number): number {
  return Math.max(0, Math.min(5, Math.round(Math.log10(px)) + 1));
}

const CONSONANTS = 'BCDFGHJKLMNPRSTVWXZ';
const VOWELS = 'AEIOUY';

function syntheticNames(count: number, taken: Set<string>): string[] {
  const next = sequence('hyperliquid-replay/names');
  const pick = (alphabet: string) => alphabet[Math.floor(next() * alphabet.length)] ?? 'X';
  const names: string[] = [];
  while (names.length < count) {
    const length = 3 + Math.floor(next() * 3);
    let name = '';
    for (let i = 0; i < length; i++) name += i % 2 === 0 ? pick(CONSONANTS) : pick(VOWELS);
    if (next() < 0.06) name = `k${name}`;
    if (taken.has(name)) continue;
    taken.add(name);
    names.push(name);
  }
  return names;
}

/** Builds the universe deterministically from the recordings. */
export function buildCatalogue(data: RecordedData, perpCount: number): PerpAsset[] {
  const assets: PerpAsset[] = [];
  const next = sequence('hyperliquid-replay/catalogue');
  for (const recorded of data.universe) {
    const mid = Number(data.perpMids.get(recorded.name) ?? NaN);
    const referencePx = Number.isFinite(mid) && mid > 0 ? mid : 1;
    assets.push({
      name: recorded.name,
      szDecimals: recorded.szDecimals,
      maxLeverage: recorded.maxLeverage,
      marginTableId: 50,
      referencePx,
      dailyNotional: 10 ** (6 + next() * 2.5),
      listedAt: RECORDED_LISTING_TIME,
      origin: 'recorded',
    });
  }
  const names = syntheticNames(Math.max(0, perpCount - assets.length), new Set(assets.map((a) => a.name)));
  for (const name of names) {
    const px = Math.exp(Math.log(0.0002) + next() * (Math.log(2500) - Math.log(0.0002)));
    const szDecimals = szDecimalsFor(px);
    const leverageRoll = next();
    const maxLeverage = leverageRoll < 0.15 ? 3 : leverageRoll < 0.45 ? 5 : leverageRoll < 0.8 ? 10 : 20;
    const flagRoll = next();
    const listedAt = Math.floor((SYNTH_LISTING_FROM + next() * (SYNTH_LISTING_TO - SYNTH_LISTING_FROM)) / 3_600_000) * 3_600_000;
    const asset: PerpAsset = {
      name,
      szDecimals,
      maxLeverage,
      // Ids below 50 stand for a single tier at that leverage (not listed in marginTables); 51 is the recorded "tiered 10x".
      marginTableId: maxLeverage === 10 && next() < 0.5 ? 51 : maxLeverage,
      referencePx: roundPrice(px, szDecimals),
      dailyNotional: 10 ** (3.5 + next() * 3.5),
      listedAt,
      origin: 'synthesized',
    };
    if (flagRoll < 0.08) {
      asset.isDelisted = true;
      asset.delistedAt = listedAt + Math.floor(next() * 200) * 86_400_000 + 30 * 86_400_000;
    } else if (flagRoll < 0.11) {
      asset.onlyIsolated = true;
      asset.marginMode = 'strictIsolated';
    } else if (flagRoll < 0.13) {
      asset.onlyIsolated = true;
      asset.marginMode = 'noCross';
    }
    assets.push(asset);
  }
  return assets;
}

/** The `meta.universe` entry of an asset. */
export function universeEntry(asset: PerpAsset): UniverseEntry {
  const entry: UniverseEntry = { szDecimals: asset.szDecimals, name: asset.name, maxLeverage: asset.maxLeverage, marginTableId: asset.marginTableId };
  if (asset.onlyIsolated) entry.onlyIsolated = true;
  if (asset.isDelisted) entry.isDelisted = true;
  if (asset.marginMode) entry.marginMode = asset.marginMode;
  return entry;
}
