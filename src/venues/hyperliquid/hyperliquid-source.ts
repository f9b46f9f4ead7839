import { InfoClient } from '@nktkas/hyperliquid';
import type { Logger } from 'pino';
import type { MarketDefinition, MarketQuote } from '../../domain/market.js';
import type { HistoryStores, MarketDataSource, SourceReading, SourceSink } from '../../sources/market-data-source.js';
import { RealVenueSource } from '../../sources/real-venue-source.js';
import { RequestBudget } from '../../sources/request-budget.js';
import { storedDay } from '../../sources/stored-day.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { perpCatalogue, perpMarketId, type UniverseAsset } from './hyperliquid-catalogue.js';
import { HYPERLIQUID_REFRESH_MS, hyperliquidHistory } from './hyperliquid-history.js';
import { perpQuote, type PerpContext } from './hyperliquid-quotes.js';
import type { HyperliquidSettings } from './hyperliquid-settings.js';
import { HyperliquidStream } from './hyperliquid-stream.js';
import { HyperliquidUpstream } from './hyperliquid-upstream.js';
import { pollWeightPerMinute } from './hyperliquid-weights.js';

/** The venue's weight budget per minute (HYPERLIQUID_WEIGHT_PER_MINUTE), the contexts poll's share kept free from the backfill. */
export function hyperliquidBudget(settings: HyperliquidSettings): RequestBudget {
  return new RequestBudget(settings.weightPerMinute, { reservedForPolls: pollWeightPerMinute(settings) });
}

/**
 * Hyperliquid's perpetuals as a market-data source (no key needed): the catalogue and contexts
 * (mark, mid, funding, open interest, day volume) polled by `metaAndAssetCtxs`, mids, books and
 * minute candles streamed, history fetched in the background; every request within the budget.
 * A quote's time is the venue's (its latest book's) where it has one; a value the venue did not
 * send is never filled in (an unknown 24 h range is null; a coin without a book has none).
 */
export class HyperliquidSource extends RealVenueSource<HyperliquidStream> implements MarketDataSource {
  private readonly contexts = new Map<string, PerpContext>();
  private readonly mids = new Map<string, string>();
  private readonly bookTimes = new Map<string, number>();
  private readonly ranges = new Map<string, { high: string; low: string }>();
  private readonly upstreamState: HyperliquidUpstream;
  private readonly info: InfoClient;

  constructor(
    id: string,
    private readonly settings: HyperliquidSettings,
    private readonly deps: { logger: Logger; upstream: UpstreamObserver; now?: () => number; budget?: RequestBudget },
  ) {
    const budget = deps.budget ?? hyperliquidBudget(settings);
    const upstream = new HyperliquidUpstream(id, settings, budget, deps.upstream);
    super(id, settings.pollMs, budget, upstream, deps.logger);
    this.upstreamState = upstream;
    this.info = new InfoClient({ transport: upstream.transport('poll') });
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  async read(now: number): Promise<SourceReading> {
    const answer = await this.info.metaAndAssetCtxs();
    const [meta, contexts] = answer;
    if (!Array.isArray(meta?.universe) || !Array.isArray(contexts) || contexts.length !== meta.universe.length) {
      throw new Error('Hyperliquid answered metaAndAssetCtxs without a universe and its contexts');
    }
    const universe = (meta.universe as UniverseAsset[]).filter((a) => !this.settings.coins || this.settings.coins.has(a.name));
    const indexOf = new Map((meta.universe as UniverseAsset[]).map((a, i) => [a.name, i]));
    const { markets } = perpCatalogue(universe, this.id);
    const added = markets.filter((m) => !this.listed.some((l) => l.id === m.id));
    const first = this.listed.length === 0;
    this.listed = markets;
    this.history?.track(markets);
    for (const m of markets) this.contexts.set(m.asset, contexts[indexOf.get(m.asset)!] as PerpContext);
    await this.measureRanges(now);
    const quotes = markets.map((m) => this.quoteOf(m, now));
    // Listed since the last poll: streamed too (delisted ones simply stop being quoted).
    if (added.length > 0 && !first) this.onListed(added);
    return { quotes, books: [], degraded: false };
  }

  stream(sink: SourceSink): () => void {
    const stream = new HyperliquidStream(
      this.id,
      this.settings,
      {
        mids: (mids) => {
          for (const m of this.listed) {
            const mid = mids[m.asset];
            if (mid === undefined || !this.contexts.has(m.asset)) continue;
            this.mids.set(m.asset, mid);
            sink.quote(this.quoteOf(m, this.now()));
          }
        },
        book: (coin, time, bids, asks) => {
          if (!this.listed.some((m) => m.asset === coin)) return;
          this.bookTimes.set(coin, time);
          sink.book({ marketId: perpMarketId(coin), bids, asks, sourceTime: time });
        },
        candle: (coin, candle) => {
          const id = perpMarketId(coin);
          if (this.listed.some((m) => m.asset === coin) && !this.historyCold(id)) sink.candle(id, 60_000, candle);
        },
      },
      this.deps.upstream,
      this.deps.logger,
    );
    return this.runStream(stream);
  }

  async backfillHistory(stores: HistoryStores): Promise<void> {
    const info = new InfoClient({ transport: this.upstreamState.transport('background') });
    await this.leadWith(stores, () => hyperliquidHistory(info, stores), HYPERLIQUID_REFRESH_MS);
  }

  private quoteOf(m: MarketDefinition, now: number): MarketQuote {
    const bookTime = this.bookTimes.get(m.asset);
    return perpQuote(m, this.contexts.get(m.asset)!, {
      // The venue's own time, from its latest book; else when it answered.
      sourceTime: bookTime ?? now,
      ...(this.mids.has(m.asset) ? { mid: this.mids.get(m.asset)! } : {}),
      ...(this.ranges.has(m.id) ? { range24h: this.ranges.get(m.id)! } : {}),
    });
  }

  /** The 24 h high and low of each market from its stored venue candles (hours, and minutes of the open hour). */
  private async measureRanges(now: number): Promise<void> {
    const candles = this.stores?.candles;
    if (!candles) return;
    for (const m of this.listed) {
      const day = await storedDay(candles, m.id, now);
      if (day) this.ranges.set(m.id, { high: day.high, low: day.low });
    }
  }

  private onListed(markets: readonly MarketDefinition[]): void {
    this.deps.logger.info({ venue: this.id, markets: markets.map((m) => m.id) }, 'venue listed new markets');
    // The stream follows the catalogue: reopened with the new coins.
    if (this.live) {
      this.live.stop();
      this.live.start(this.listed.map((m) => m.asset));
    }
  }
}
