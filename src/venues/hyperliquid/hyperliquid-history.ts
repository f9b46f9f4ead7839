import type { InfoClient } from '@nktkas/hyperliquid';
import type { Logger } from 'pino';
import { DEFAULT_CANDLE_TIERS, type Candle } from '../../domain/candle.js';
import type { MarketDefinition } from '../../domain/market.js';
import { writeVenueCandles } from '../../ingest/venue-candles.js';
import { FUNDING_RETENTION } from '../../market-data/funding-store.js';
import type { HistoryStores } from '../../sources/market-data-source.js';
import { venueCandle, venueDecimal } from './hyperliquid-quotes.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The venue's name of each stored resolution. */
const INTERVALS: Record<number, '1m' | '1h' | '1d'> = { [MINUTE]: '1m', [HOUR]: '1h', [DAY]: '1d' };
/** `fundingHistory` answers at most this many entries: a full page asks for the next. */
const FUNDING_PAGE = 500;
/** Settled funding is fetched again once an hour has passed. */
const FUNDING_EVERY_MS = HOUR;

/**
 * A market's history fetched from the venue in the background, within the venue's budget: per
 * stored tier (days, hours, then minutes, so a chart has its long view first) the candles from
 * the newest stored one (a restart resumes there) or the tier's retention, then the settled
 * funding, paged 500 at a time. Markets asked for go to the front. The venue keeps only the 5,000
 * most recent candles of an interval, and omits intervals without trades: nothing is filled in.
 */
export class HyperliquidHistory {
  private readonly queue: MarketDefinition[] = [];
  private readonly pending = new Set<string>();
  /** Markets whose history was fetched at least once since this backfill started. */
  private readonly warmed = new Set<string>();
  private running = false;
  private stopped = false;

  constructor(
    private readonly info: InfoClient,
    private readonly stores: HistoryStores,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every market the venue lists: a market seen for the first time is queued (resuming from what is stored). */
  track(markets: readonly MarketDefinition[]): void {
    const unknown = markets.filter((m) => !this.known.has(m.id));
    for (const m of unknown) this.known.set(m.id, m);
    this.enqueue(unknown);
    // Once an hour every market again: a new settlement, and candles from the newest stored.
    this.refresh ??= setInterval(() => this.enqueue([...this.known.values()]), FUNDING_EVERY_MS);
    this.refresh.unref();
  }

  private readonly known = new Map<string, MarketDefinition>();
  private refresh: NodeJS.Timeout | undefined;

  private enqueue(markets: readonly MarketDefinition[]): void {
    for (const m of markets) {
      if (this.pending.has(m.id)) continue;
      this.pending.add(m.id);
      this.queue.push(m);
    }
    void this.run();
  }

  /**
   * Whether a market's history has not been fetched yet since this backfill started. Its streamed
   * candles wait until it has: written first, they would make the backfill resume from now.
   */
  isCold(marketId: string): boolean {
    return !this.warmed.has(marketId);
  }

  /** Whether a market's history is still to be fetched. */
  isPending(marketId: string): boolean {
    return this.pending.has(marketId);
  }

  /** A market someone asked for: fetched next. */
  prioritise(marketId: string): void {
    const at = this.queue.findIndex((m) => m.id === marketId);
    if (at > 0) this.queue.unshift(...this.queue.splice(at, 1));
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.refresh);
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let market = this.queue.shift(); market && !this.stopped; market = this.queue.shift()) {
        try {
          await this.warmMarket(market);
          this.pending.delete(market.id);
          this.warmed.add(market.id);
        } catch (err) {
          // The budget and the venue's health decide when to try again: at the back of the queue.
          this.logger.warn({ market: market.id, err: err instanceof Error ? err.message : String(err) }, 'venue history not fetched; will retry');
          this.queue.push(market);
          await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async warmMarket(market: MarketDefinition): Promise<void> {
    const now = this.now();
    // Coarse first (a chart's long view); minutes last, folded into the current hour and day.
    for (const tier of [...DEFAULT_CANDLE_TIERS].sort((a, b) => b.resolutionMs - a.resolutionMs)) {
      const interval = INTERVALS[tier.resolutionMs];
      if (!interval) continue;
      const newest = await this.stores.candles.latest(market.id, tier.resolutionMs);
      // From the newest stored candle (it may have been open), else the tier's retention.
      const from = newest ?? now - tier.retentionMs;
      const answer = await this.info.candleSnapshot({ coin: market.asset, interval, startTime: from, endTime: now });
      const candles: Candle[] = answer.map((c) => venueCandle(c, market.asset));
      if (tier.resolutionMs === MINUTE) await writeVenueCandles(this.stores.candles, market.id, tier.resolutionMs, candles);
      else await this.stores.candles.upsertCandles(market.id, tier.resolutionMs, candles);
    }
    await this.warmFunding(market, now);
  }

  /** Settled hourly funding from the newest stored entry (or the retention), page by page. */
  private async warmFunding(market: MarketDefinition, now: number): Promise<void> {
    const [newest] = await this.stores.funding.latest(market.id, 1);
    let from = newest ? newest.time + 1 : now - FUNDING_RETENTION * HOUR;
    for (;;) {
      const page = await this.info.fundingHistory({ coin: market.asset, startTime: from, endTime: now });
      for (const entry of page)
        await this.stores.funding.append(market.id, { time: entry.time, rate: venueDecimal(entry.fundingRate, `${market.asset} funding rate`) });
      if (page.length < FUNDING_PAGE) return;
      from = page[page.length - 1]!.time + 1;
    }
  }
}
