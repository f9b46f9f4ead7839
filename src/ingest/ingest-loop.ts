import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { MarketDefinition, MarketQuote, OrderBookSnapshot } from '../domain/market.js';
import type { SourceHealth } from '../domain/source-health.js';
import type { GatewayEvents } from '../events/gateway-events.js';
import type { MarketReader } from '../market-data/market-reader.js';
import { orderBookView } from '../market-data/order-book-view.js';
import type { CandleStore } from '../market-data/candle-store.js';
import type { FundingStore } from '../market-data/funding-store.js';
import type { SnapshotCache } from '../market-data/snapshot-cache.js';
import type { Candle } from '../domain/candle.js';
import type { MarketDataSource, SourceReading, SourceSink } from '../sources/market-data-source.js';
import type { UpstreamObserver } from '../sources/upstream-observer.js';
import { writeVenueCandles } from './venue-candles.js';

export interface IngestDeps {
  sources: readonly MarketDataSource[];
  cache: SnapshotCache;
  candles: CandleStore;
  funding: FundingStore;
  reader: MarketReader;
  events: GatewayEvents;
  clock: Clock;
  logger: Logger;
  /** When the loop runs under a lease, each round first checks that this replica still holds it. */
  lease?: { readonly held: boolean };
  /** Where each venue's ingest lag is told (/metrics). */
  upstream?: UpstreamObserver;
  /** An unchanged market's freshness is re-sent after this long, so a subscriber knows the feed is alive (default 30 s). */
  freshnessHeartbeatMs?: number;
}

const FRESHNESS_CHECK_MS = 1_000;
/**
 * Streamed updates are written together at this pace: a venue streaming hundreds of books a
 * second would otherwise change the snapshot version (and invalidate every rendered answer) as often.
 */
const STREAM_FLUSH_MS = 500;

/** What a venue streamed since the last flush: the newest quote and book per market, every candle. */
interface StreamedUpdates {
  quotes: Map<string, MarketQuote>;
  books: Map<string, Omit<OrderBookSnapshot, 'receivedAt'>>;
  candles: Map<string, { marketId: string; resolutionMs: number; candles: Map<number, Candle> }>;
}

/** The next sequence number of a market in one topic (1 for its first event). */
function next(sequences: Map<string, number>, marketId: string): number {
  const sequence = (sequences.get(marketId) ?? 0) + 1;
  sequences.set(marketId, sequence);
  return sequence;
}
const DEFAULT_HEARTBEAT_MS = 30_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Polls each venue on its own interval, stamps and caches what it reads, appends candle
 * observations and funding settlements, records source health, and publishes market, book and freshness events.
 * Public reads never call a venue: this loop is the only caller.
 */
export class IngestLoop {
  private readonly timers: NodeJS.Timeout[] = [];
  /** Last freshness state published per market, so only changes are published. */
  private readonly published = new Map<string, { key: string; at: number; sequence: number }>();
  /** Last sequence number published per market on `market:updated` and on `orderbook:updated`. */
  private readonly sequences = { market: new Map<string, number>(), book: new Map<string, number>() };
  /** Set while rounds fail to reach the stores (Redis unreachable), so a streak is logged once. */
  private storesFailing = false;
  /** The venues' streams while this replica ingests, and what each streamed since the last flush. */
  private readonly streams: (() => void)[] = [];
  private readonly streamed = new Map<MarketDataSource, StreamedUpdates>();
  /** The sources whose listing this replica wrote to the cache since it began ingesting. */
  private readonly announced = new Set<MarketDataSource>();

  constructor(private readonly deps: IngestDeps) {}

  start(): void {
    for (const source of this.deps.sources) {
      // A poll still running when the next is due (a node past its timeout, a budget paused by a 429) is not doubled:
      // the one poll's outcome counts once.
      let polling = false;
      const poll = () => {
        if (polling) return;
        polling = true;
        void this.guard(`poll ${source.id}`, () => this.pollSource(source)).finally(() => (polling = false));
      };
      this.timers.push(setInterval(poll, source.pollIntervalMs));
    }
    this.timers.push(setInterval(() => void this.guard('freshness', () => this.publishFreshnessChanges()), FRESHNESS_CHECK_MS));
    this.timers.push(setInterval(() => void this.guard('prune', () => this.deps.candles.prune(this.deps.clock.now())), PRUNE_EVERY_MS));
    for (const source of this.deps.sources) {
      if (!source.stream) continue;
      this.streams.push(source.stream(this.sinkFor(source)));
      this.timers.push(setInterval(() => void this.guard(`stream ${source.id}`, () => this.flushStreamed(source)), STREAM_FLUSH_MS));
    }
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    for (const t of this.timers.splice(0)) clearInterval(t);
    for (const stop of this.streams.splice(0)) stop();
    this.streamed.clear();
    this.announced.clear();
    for (const source of this.deps.sources) source.standDown?.();
  }

  /** Where a venue's stream puts its updates until the next flush (the newest per market wins). */
  private sinkFor(source: MarketDataSource): SourceSink {
    const pending = (): StreamedUpdates => {
      let updates = this.streamed.get(source);
      if (!updates) this.streamed.set(source, (updates = { quotes: new Map(), books: new Map(), candles: new Map() }));
      return updates;
    };
    return {
      quote: (quote) => void pending().quotes.set(quote.marketId, quote),
      book: (book) => void pending().books.set(book.marketId, book),
      candle: (marketId, resolutionMs, candle) => {
        const series = pending().candles;
        const key = `${marketId}|${resolutionMs}`;
        let entry = series.get(key);
        if (!entry) series.set(key, (entry = { marketId, resolutionMs, candles: new Map() }));
        entry.candles.set(candle.start, candle);
      },
    };
  }

  /** Writes what a venue streamed since the last flush, in one go, and publishes it. */
  async flushStreamed(source: MarketDataSource): Promise<void> {
    const updates = this.streamed.get(source);
    if (!updates) return;
    this.streamed.delete(source);
    const { cache, candles, events, clock, reader } = this.deps;
    const receivedAt = clock.now();
    this.reportLag(source, receivedAt, [...updates.quotes.values(), ...updates.books.values()]);
    for (const q of updates.quotes.values()) await cache.putMarket({ ...q, receivedAt });
    for (const b of updates.books.values()) await cache.putOrderBook({ ...b, receivedAt });
    for (const { marketId, resolutionMs, candles: byStart } of updates.candles.values()) {
      await writeVenueCandles(
        candles,
        marketId,
        resolutionMs,
        [...byStart.values()].sort((a, b) => a.start - b.start),
      );
    }
    const now = clock.now();
    const status = await reader.sourceStatus(source.id);
    const updated = [...updates.quotes.keys()].flatMap((id) => reader.directory.resolve(id) ?? []);
    const { views } = await reader.views(updated, now);
    for (const view of views) events.publish('market:updated', { ...view, sequence: next(this.sequences.market, view.id), producedAt: now });
    for (const b of updates.books.values()) {
      const m = reader.directory.resolve(b.marketId);
      const book = await cache.getOrderBook(b.marketId);
      if (m && book)
        events.publish('orderbook:updated', { ...orderBookView(m, book, status, now), sequence: next(this.sequences.book, m.id), producedAt: now });
    }
  }

  /** The venue's ingest lag: from its own time of the newest figure written to when it was written. */
  private reportLag(source: MarketDataSource, receivedAt: number, written: readonly { sourceTime: number }[]): void {
    if (!this.deps.upstream || written.length === 0) return;
    let newest = -Infinity;
    for (const w of written) newest = Math.max(newest, w.sourceTime);
    this.deps.upstream.ingested(source.id, receivedAt - newest);
  }

  /** A round that cannot reach the stores fails alone, never the process; the next one retries. */
  private async guard(round: string, run: () => Promise<void>): Promise<void> {
    // A leader frozen past its lease (SIGSTOP, a paused container) must not poll when it resumes.
    if (this.deps.lease && !this.deps.lease.held) return;
    try {
      await run();
      // Only a poll proves the stores writable again (the freshness round may read local copies).
      if (this.storesFailing && round.startsWith('poll')) {
        this.storesFailing = false;
        this.deps.logger.info({ round }, 'ingest rounds succeed again');
      }
    } catch (err) {
      if (this.storesFailing) return;
      this.storesFailing = true;
      this.deps.logger.warn(
        { round, err: err instanceof Error ? err.message : String(err) },
        'ingest round failed (stores unreachable?); retrying on the next one',
      );
    }
  }

  /** One poll of every source, in parallel. */
  async pollAll(): Promise<void> {
    await Promise.all(this.deps.sources.map((s) => this.pollSource(s)));
  }

  async pollSource(source: MarketDataSource): Promise<void> {
    const { cache, candles, funding, events, clock, logger, reader } = this.deps;
    const startedAt = clock.now();
    const previous = await cache.getSourceHealth(source.id);
    let health: SourceHealth;
    let reading: SourceReading | undefined;
    let failure = '';
    try {
      reading = await source.read(startedAt);
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    // Only the venue's own failure marks it down; a store that cannot be written fails the round.
    if (reading) {
      const receivedAt = clock.now();
      this.reportLag(source, receivedAt, [...reading.quotes, ...reading.books]);
      // A venue's listings and delistings, as its poll saw them: a delisted market leaves the list,
      // here and (through the cache) on every other replica.
      const listed = source.markets();
      const relisted = reader.directory.relist(source.id, listed);
      if (relisted) logger.info({ source: source.id, markets: listed.length }, 'venue listing changed');
      for (const q of reading.quotes) {
        await cache.putMarket({ ...q, receivedAt });
        // A venue with its own candles (stream and history) is not sampled: its candles are the venue's.
        if (!source.venueCandles) await candles.record(q.marketId, { time: q.sourceTime, price: q.price, volume: q.volumeDelta });
        if (q.lastFunding) await funding.append(q.marketId, q.lastFunding);
      }
      for (const b of reading.books) await cache.putOrderBook({ ...b, receivedAt });
      // The listing after its markets' snapshots: a replica that follows it never lists a market it cannot show.
      if (relisted || !this.announced.has(source)) {
        await cache.putListing(source.id, listed);
        this.announced.add(source);
      }
      const upstream = source.upstream?.();
      const degraded = reading.degraded || (upstream !== undefined && upstream.status !== 'healthy');
      health = {
        sourceId: source.id,
        // A dead stream or a run of refusals upstream says more than one good poll.
        status: upstream?.status === 'down' ? 'down' : degraded ? 'degraded' : 'healthy',
        lastAttemptAt: startedAt,
        lastSuccessAt: receivedAt,
        lastError: degraded ? (reading.degradedReason ?? upstream?.reason ?? 'venue answered in part') : null,
        consecutiveFailures: 0,
      };
      await cache.putSourceHealth(health);
      const now = clock.now();
      const markets = source.markets();
      const { views } = await reader.views(markets, now);
      for (const view of views) events.publish('market:updated', { ...view, sequence: next(this.sequences.market, view.id), producedAt: now });
      for (const b of reading.books) {
        const m = reader.directory.resolve(b.marketId);
        const book = await cache.getOrderBook(b.marketId);
        if (m && book) {
          events.publish('orderbook:updated', { ...orderBookView(m, book, health.status, now), sequence: next(this.sequences.book, m.id), producedAt: now });
        }
      }
    } else {
      const failures = (previous?.consecutiveFailures ?? 0) + 1;
      health = {
        sourceId: source.id,
        // A real venue is degraded by one failed poll and down after a run of them; a simulator's outage is at once.
        status: failures >= (source.failuresBeforeDown ?? 1) ? 'down' : 'degraded',
        lastAttemptAt: startedAt,
        lastSuccessAt: previous?.lastSuccessAt ?? null,
        lastError: failure,
        consecutiveFailures: failures,
      };
      await cache.putSourceHealth(health);
      if (health.consecutiveFailures === 1) logger.warn({ source: source.id, err: failure }, 'market-data source failed');
    }
    if (previous && previous.status !== health.status) {
      logger.info({ source: source.id, from: previous.status, to: health.status }, 'source status changed');
    }
    await this.publishFreshnessChanges(source.markets());
  }

  /**
   * Publishes `freshness:changed` for markets whose freshness moved: a new snapshot, a source
   * status change, or a stale flip caused only by time passing (hence the periodic check).
   * Only a change of stale, staleReason or sourceStatus counts (a new snapshot alone does not),
   * plus a heartbeat per market; each event carries its market's sequence number and the time
   * it was produced.
   */
  async publishFreshnessChanges(markets: readonly MarketDefinition[] = this.deps.reader.directory.markets): Promise<void> {
    const { reader, events, clock } = this.deps;
    const heartbeatMs = this.deps.freshnessHeartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    const now = clock.now();
    for (const current of await reader.freshnessOf(markets, now)) {
      const f = current.freshness;
      const key = `${f.stale}|${f.staleReason}|${f.sourceStatus}`;
      const last = this.published.get(current.marketId);
      const changed = last?.key !== key;
      if (last && !changed && now - last.at < heartbeatMs) continue;
      const sequence = (last?.sequence ?? 0) + 1;
      this.published.set(current.marketId, { key, at: now, sequence });
      events.publish('freshness:changed', { ...current, sequence, producedAt: now, heartbeat: !changed });
    }
  }
}
