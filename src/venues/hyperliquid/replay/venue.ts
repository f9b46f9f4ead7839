import { buildCatalogue, marginTables, szDecimalsFor, universeEntry, type PerpAsset } from './catalogue.js';
import { aggregateBook, synthBook } from './book.js';
import { decimalString, midString, priceString, roundPrice, sizeString } from './numbers.js';
import { signedUnit, unit } from './random.js';
import type { RecordedData } from './recorded.js';
import { candleSnapshot, exactFundingSeries, fundingHistory, HOUR, pathPrice, synthCandle, candleOpen, DAY } from './series.js';
import type { BookLevel, Candle, CandleInterval, FundingItem, L2Book, PerpAssetCtx, PerpMeta, PredictedFunding } from './wire.js';

/** Listing parameters for `listAsset`; everything but the name has a default derived from the price. */
export interface NewAsset {
  name: string;
  px?: number;
  szDecimals?: number;
  maxLeverage?: number;
  onlyIsolated?: boolean;
}

/**
 * The fake venue's state: the universe, current mids and books, the clock and the data switches.
 * It answers in wire shapes; HTTP and WebSocket framing live elsewhere.
 */
export class ReplayVenue {
  readonly assets: PerpAsset[];
  private readonly byName = new Map<string, PerpAsset>();
  private readonly mids = new Map<string, string>();
  private readonly books = new Map<string, [BookLevel[], BookLevel[]]>();
  private readonly bookVersions = new Map<string, number>();
  private readonly ctxOverrides = new Map<string, PerpAssetCtx>();
  private readonly fundingSeries = new Map<string, FundingItem[]>();
  private readonly recordedCandles = new Map<string, Map<number, Candle>>();
  private readonly sparse = new Map<string, number>();
  private sparseAll = 0;
  private fixedNow: number | null = null;
  private offsetMs = 0;

  constructor(
    readonly recorded: RecordedData,
    perpCount: number,
    private readonly includeSpotMids: boolean,
  ) {
    this.assets = buildCatalogue(recorded, perpCount);
    for (const asset of this.assets) {
      this.byName.set(asset.name, asset);
      const recordedMid = recorded.perpMids.get(asset.name);
      this.mids.set(asset.name, recordedMid ?? midString(asset.referencePx, asset.szDecimals));
    }
    for (const [coin, book] of recorded.books) this.books.set(coin, [book.levels[0].map((l) => ({ ...l })), book.levels[1].map((l) => ({ ...l }))]);
    for (const [key, candles] of recorded.candles) this.recordedCandles.set(key, new Map(candles.map((c) => [c.t, c])));
  }

  // ---- clock -------------------------------------------------------------------------------

  /** The venue's now: the fixed time if set, else the machine's, plus the offset. */
  now(): number {
    return (this.fixedNow ?? Date.now()) + this.offsetMs;
  }

  setClock(clock: { now?: number | null; offsetMs?: number }): void {
    if (clock.now !== undefined) this.fixedNow = clock.now;
    if (clock.offsetMs !== undefined) this.offsetMs = clock.offsetMs;
  }

  // ---- universe ----------------------------------------------------------------------------

  asset(name: string): PerpAsset | undefined {
    return this.byName.get(name);
  }

  listAsset(spec: NewAsset): number {
    if (this.byName.has(spec.name)) throw new Error(`asset ${spec.name} is already listed`);
    const px = spec.px ?? 1;
    const szDecimals = spec.szDecimals ?? szDecimalsFor(px);
    const maxLeverage = spec.maxLeverage ?? 3;
    const asset: PerpAsset = {
      name: spec.name,
      szDecimals,
      maxLeverage,
      marginTableId: maxLeverage,
      referencePx: roundPrice(px, szDecimals),
      dailyNotional: 50_000,
      listedAt: Math.floor(this.now() / HOUR) * HOUR,
      origin: 'listed',
    };
    if (spec.onlyIsolated) {
      asset.onlyIsolated = true;
      asset.marginMode = 'strictIsolated';
    }
    this.assets.push(asset);
    this.byName.set(asset.name, asset);
    this.mids.set(asset.name, midString(asset.referencePx, szDecimals));
    return this.assets.length - 1;
  }

  delistAsset(name: string): number {
    const asset = this.byName.get(name);
    if (!asset) throw new Error(`no asset ${name}`);
    asset.isDelisted = true;
    asset.delistedAt = this.now();
    delete asset.onlyIsolated;
    delete asset.marginMode;
    return this.assets.indexOf(asset);
  }

  meta(): PerpMeta {
    return { universe: this.assets.map(universeEntry), marginTables: marginTables(this.recorded), collateralToken: 0 };
  }

  // ---- mids, contexts, books ----------------------------------------------------------------

  /** allMids: every listed perp's mid, then (from the spot recording) the spot pairs' mids, as the first perp dex answers. */
  allMids(): Record<string, string> {
    const mids: Record<string, string> = {};
    for (const asset of this.assets) {
      const mid = this.mids.get(asset.name);
      if (!asset.isDelisted && mid !== undefined) mids[asset.name] = mid;
    }
    if (this.includeSpotMids) for (const [coin, mid] of this.recorded.spotMids) mids[coin] = mid;
    return mids;
  }

  midOf(asset: PerpAsset): number {
    return Number(this.mids.get(asset.name) ?? asset.referencePx);
  }

  /** Sets mids (e.g. for an allMids tick); without `changes`, moves every listed perp by a small deterministic step. */
  moveMids(changes?: Record<string, string | number>, step = 0): Record<string, string> {
    if (changes) {
      for (const [coin, px] of Object.entries(changes)) {
        const asset = this.byName.get(coin);
        this.mids.set(coin, typeof px === 'string' ? px : midString(px, asset?.szDecimals ?? 2));
      }
    } else {
      for (const asset of this.assets) {
        if (asset.isDelisted) continue;
        const moved = this.midOf(asset) * (1 + 0.001 * signedUnit(asset.name, 'tick', step));
        this.mids.set(asset.name, midString(moved, asset.szDecimals));
      }
    }
    return this.allMids();
  }

  ctx(asset: PerpAsset): PerpAssetCtx {
    const override = this.ctxOverrides.get(asset.name);
    if (override) return override;
    const sz = asset.szDecimals;
    if (asset.isDelisted) {
      // As the recorded delisted MATIC: no mid, no premium, no impact prices, nothing open.
      const px = priceString(asset.referencePx, sz);
      return {
        funding: '0.0',
        openInterest: '0.0',
        prevDayPx: px,
        dayNtlVlm: '0.0',
        premium: null,
        oraclePx: px,
        markPx: px,
        midPx: null,
        impactPxs: null,
        dayBaseVlm: '0.0',
      };
    }
    const now = this.now();
    const mid = this.midOf(asset);
    const hour = Math.floor(now / HOUR) * HOUR;
    const premium = 0.0004 * signedUnit(asset.name, 'ctx-premium', hour);
    const oracle = mid * (1 - premium);
    const prevDay = pathPrice(asset, now - DAY, this.recorded.anchorTime) * (mid / pathPrice(asset, now, this.recorded.anchorTime));
    const dayBase = (asset.dailyNotional / mid) * (0.6 + 0.8 * unit(asset.name, 'day-volume', Math.floor(now / DAY)));
    const [bids, asks] = this.book(asset);
    return {
      funding: decimalString(0.0000125 + 0.00002 * signedUnit(asset.name, 'ctx-funding', hour), 8),
      openInterest: sizeString((asset.dailyNotional / mid) * (0.2 + unit(asset.name, 'oi')), sz),
      prevDayPx: priceString(prevDay, sz),
      dayNtlVlm: decimalString(dayBase * mid, 4),
      premium: decimalString(premium, 10),
      oraclePx: priceString(oracle, sz),
      markPx: priceString(mid, sz),
      midPx: this.mids.get(asset.name) ?? null,
      impactPxs: [bids[2]?.px ?? priceString(mid, sz), asks[2]?.px ?? priceString(mid, sz)],
      dayBaseVlm: sizeString(dayBase, sz),
    };
  }

  setCtx(coin: string, ctx: PerpAssetCtx | null): void {
    if (ctx) this.ctxOverrides.set(coin, ctx);
    else this.ctxOverrides.delete(coin);
  }

  /** The full-depth book: the recorded one (DYDX), one set by a push, or one synthesized around the mid. */
  book(asset: PerpAsset): [BookLevel[], BookLevel[]] {
    const stored = this.books.get(asset.name);
    if (stored) return stored;
    if (asset.isDelisted) return [[], []];
    return synthBook(asset, this.midOf(asset), this.bookVersions.get(asset.name) ?? 0);
  }

  /** Replaces the book (or, without levels, moves to the next synthesized version around the mid). */
  setBook(asset: PerpAsset, levels?: [BookLevel[], BookLevel[]]): void {
    if (levels) {
      this.books.set(asset.name, levels);
      return;
    }
    this.books.delete(asset.name);
    this.bookVersions.set(asset.name, (this.bookVersions.get(asset.name) ?? 0) + 1);
  }

  l2Book(asset: PerpAsset, nSigFigs?: number | null, mantissa?: number | null): L2Book {
    return { coin: asset.name, levels: aggregateBook(this.book(asset), asset.szDecimals, nSigFigs, mantissa), time: this.now() };
  }

  // ---- candles and funding ------------------------------------------------------------------

  setSparse(ratio: number, coin?: string): void {
    if (coin === undefined) this.sparseAll = ratio;
    else this.sparse.set(coin, ratio);
  }

  sparseRatio(coin: string): number {
    return this.sparse.get(coin) ?? this.sparseAll;
  }

  candles(asset: PerpAsset, interval: CandleInterval, startTime: number, endTime: number | undefined): Candle[] {
    return candleSnapshot({
      asset,
      interval,
      startTime,
      endTime,
      now: this.now(),
      anchor: this.recorded.anchorTime,
      sparseRatio: this.sparseRatio(asset.name),
      recorded: this.recordedCandles.get(`${asset.name}|${interval}`),
    });
  }

  /** The candle still open now (for a candle push). */
  currentCandle(asset: PerpAsset, interval: CandleInterval): Candle {
    const now = this.now();
    return synthCandle(asset, interval, candleOpen(interval, now), now, this.recorded.anchorTime);
  }

  fundingHistory(asset: PerpAsset, startTime: number, endTime: number | undefined): FundingItem[] {
    return fundingHistory({
      asset,
      startTime,
      endTime,
      now: this.now(),
      recorded: this.recorded.funding.get(asset.name),
      series: this.fundingSeries.get(asset.name),
    });
  }

  /** Replaces a coin's funding history by exactly `count` hourly items ending before now. */
  exactFunding(asset: PerpAsset, count: number): FundingItem[] {
    const series = exactFundingSeries(asset, count, this.now());
    this.fundingSeries.set(asset.name, series);
    return series;
  }

  /**
   * predictedFundings (no recording exists): per listed perp, Binance and Bybit (8-hourly, only for
   * the recorded, long-listed assets; null elsewhere) and Hyperliquid (hourly).
   */
  predictedFundings(): PredictedFunding[] {
    const now = this.now();
    const nextHour = Math.floor(now / HOUR) * HOUR + HOUR;
    const next8h = Math.floor(now / (8 * HOUR)) * 8 * HOUR + 8 * HOUR;
    const rate = (asset: PerpAsset, venue: string) =>
      decimalString(0.0000125 * (venue === 'HlPerp' ? 1 : 8) + 0.00003 * signedUnit(asset.name, venue, nextHour), 8);
    return this.assets
      .filter((asset) => !asset.isDelisted)
      .map((asset) => {
        const cex = asset.origin === 'recorded';
        return [
          asset.name,
          [
            ['BinPerp', cex ? { fundingRate: rate(asset, 'BinPerp'), nextFundingTime: next8h, fundingIntervalHours: 8 } : null],
            ['HlPerp', { fundingRate: rate(asset, 'HlPerp'), nextFundingTime: nextHour, fundingIntervalHours: 1 }],
            ['BybitPerp', cex ? { fundingRate: rate(asset, 'BybitPerp'), nextFundingTime: next8h, fundingIntervalHours: 8 } : null],
          ],
        ];
      });
  }
}
