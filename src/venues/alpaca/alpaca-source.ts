import type { marketData, trading } from '@alpacahq/alpaca-trade-api';
import type { Logger } from 'pino';
import type { MarketDefinition, MarketQuote, OrderBookSnapshot } from '../../domain/market.js';
import type { HistoryStores, MarketDataSource, SourceReading, SourceSink } from '../../sources/market-data-source.js';
import { RealVenueSource } from '../../sources/real-venue-source.js';
import { RequestBudget } from '../../sources/request-budget.js';
import type { UpstreamObserver } from '../../sources/upstream-observer.js';
import { ALPACA_REFRESH_MS, alpacaHistory } from './alpaca-history.js';
import { barCandle, equityMarket, equityQuote, newer, topOfBook, venueBar, venueNumber, venueTime, type SymbolState, type VenueBar } from './alpaca-quotes.js';
import { CLOCK_EVERY_POLLS, pollRequestsPerMinute, SNAPSHOT_CHUNK, type AlpacaSettings } from './alpaca-settings.js';
import { AlpacaStream } from './alpaca-stream.js';
import { AlpacaUpstream } from './alpaca-upstream.js';

const MINUTE = 60_000;

/**
 * Alpaca's US equities (the operator's keys, ALPACA_SYMBOLS) as a market-data source: snapshots
 * polled (last trade, top of book, daily and previous daily bar), the market clock read every few
 * polls and whenever its next open or close has passed, trades, quotes and bars streamed between
 * polls, history fetched in the background; every request within the budget. A quote's time is
 * the venue's (its last trade's); a figure the venue did not send is never filled in.
 */
export class AlpacaSource extends RealVenueSource<AlpacaStream> implements MarketDataSource {
  private readonly state = new Map<string, SymbolState>();
  /** Symbols of ALPACA_SYMBOLS the venue does not know (said once in the log). */
  private readonly unknown = new Set<string>();
  /** The market clock's last answer: open or not, until when (its next close or open). */
  private session: { open: boolean; until: number } | undefined;
  private polls = 0;
  private polling = false;
  private readonly upstreamState: AlpacaUpstream;

  constructor(
    id: string,
    private readonly settings: AlpacaSettings,
    private readonly deps: { logger: Logger; upstream: UpstreamObserver; now?: () => number },
  ) {
    const budget = new RequestBudget(settings.requestsPerMinute, { reservedForPolls: pollRequestsPerMinute(settings) });
    const upstream = new AlpacaUpstream(id, settings, budget, deps.upstream);
    super(id, settings.pollMs, budget, upstream, deps.logger);
    this.upstreamState = upstream;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  async read(now: number): Promise<SourceReading> {
    // A poll still waiting (a 429's pause, a slow answer) is not doubled: one request at a time.
    if (this.polling) return { quotes: [], books: [], degraded: true, degradedReason: 'the previous poll is still waiting for the venue' };
    this.polling = true;
    try {
      return await this.poll(now);
    } finally {
      this.polling = false;
    }
  }

  private async poll(now: number): Promise<SourceReading> {
    const clockProblem = await this.readClock(now);
    const answers: Record<string, marketData.StockSnapshot | null | undefined> = {};
    for (let i = 0; i < this.settings.symbols.length; i += SNAPSHOT_CHUNK) {
      Object.assign(answers, await this.upstreamState.snapshots(this.settings.symbols.slice(i, i + SNAPSHOT_CHUNK)));
    }
    const problems: string[] = clockProblem ? [clockProblem] : [];
    const listed: MarketDefinition[] = [];
    for (const symbol of this.settings.symbols) {
      const answer = answers[symbol];
      const before = this.listed.find((m) => m.asset === symbol);
      if (!answer) {
        if (!this.unknown.has(symbol)) this.deps.logger.warn({ venue: this.id, symbol }, 'ALPACA_SYMBOLS names a symbol the venue has no data for: not listed');
        this.unknown.add(symbol);
        continue;
      }
      this.unknown.delete(symbol);
      try {
        this.merge(symbol, answer);
      } catch (err) {
        // This symbol's answer is refused (its previous figures stand); the others are served.
        problems.push((err as Error).message);
        if (before) listed.push(before);
        continue;
      }
      listed.push(before ?? equityMarket(symbol, this.id, this.state.get(symbol) ?? {}));
    }
    this.list(listed);
    const quotes = listed.flatMap((m) => this.quoteOf(m) ?? []);
    const books = listed.flatMap((m) => this.bookOf(m) ?? []);
    return { quotes, books, degraded: problems.length > 0, ...(problems.length > 0 ? { degradedReason: problems.join('; ') } : {}) };
  }

  /** The market clock, when it is due: every few polls, and as soon as its next open or close has passed. A failure leaves the last answer. */
  private async readClock(now: number): Promise<string | undefined> {
    const due = this.session === undefined || this.polls % CLOCK_EVERY_POLLS === 0 || now >= this.session.until;
    this.polls += 1;
    if (!due) return undefined;
    try {
      const clock: trading.LegacyClock = await this.upstreamState.clock();
      if (typeof clock.isOpen !== 'boolean') throw new Error('Alpaca answered the clock without is_open');
      this.session = { open: clock.isOpen, until: venueTime(clock.isOpen ? clock.nextClose : clock.nextOpen, 'the clock') };
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** Open or not now: the clock's answer until its next close (or open) has passed, then the other, until it is read again. */
  private sessionOpen(): boolean | null {
    if (!this.session) return null;
    return this.now() < this.session.until ? this.session.open : !this.session.open;
  }

  /** A snapshot into the symbol's state: each part replaces what is known when it is at least as new. */
  private merge(symbol: string, answer: marketData.StockSnapshot): void {
    const s = this.state.get(symbol) ?? {};
    const trade = answer.latestTrade && {
      price: venueNumber(answer.latestTrade.p, `${symbol} trade price`),
      time: venueTime(answer.latestTrade.t, `${symbol} trade`),
    };
    const quote = answer.latestQuote && {
      bid: venueNumber(answer.latestQuote.bp, `${symbol} bid`),
      bidSize: venueNumber(answer.latestQuote.bs, `${symbol} bid size`),
      ask: venueNumber(answer.latestQuote.ap, `${symbol} ask`),
      askSize: venueNumber(answer.latestQuote.as, `${symbol} ask size`),
      time: venueTime(answer.latestQuote.t, `${symbol} quote`),
    };
    const bar = (b: marketData.StockBar | undefined, what: string) => (b ? venueBar(b, `${symbol} ${what}`) : undefined);
    const minuteBar = bar(answer.minuteBar, 'minute bar');
    const days = daily(s, bar(answer.dailyBar, 'daily bar'), bar(answer.prevDailyBar, 'previous daily bar'));
    this.state.set(symbol, { ...s, trade: newer(s.trade, trade), quote: newer(s.quote, quote), minuteBar: newer(s.minuteBar, minuteBar), ...days });
  }

  private quoteOf(m: MarketDefinition): MarketQuote | undefined {
    const s = this.state.get(m.asset);
    return s && equityQuote(m, s, this.sessionOpen());
  }

  private bookOf(m: MarketDefinition): Omit<OrderBookSnapshot, 'receivedAt'> | undefined {
    const quote = this.state.get(m.asset)?.quote;
    return quote && topOfBook(m.id, quote);
  }

  /** The listed markets from now on: the history and the stream follow them. */
  private list(markets: MarketDefinition[]): void {
    const changed = markets.length !== this.listed.length || markets.some((m, i) => m.id !== this.listed[i]?.id);
    this.listed = markets;
    if (!changed) return;
    this.history?.track(markets);
    this.live?.follow(markets.map((m) => m.asset));
  }

  stream(sink: SourceSink): () => void {
    const listed = (symbol: string) => this.listed.find((m) => m.asset === symbol);
    const update = (symbol: string, change: (s: SymbolState) => SymbolState) => {
      this.state.set(symbol, change(this.state.get(symbol) ?? {}));
      const m = listed(symbol);
      const quote = m && this.quoteOf(m);
      if (quote) sink.quote(quote);
      return m;
    };
    const stream = new AlpacaStream(
      this.id,
      this.settings,
      {
        trade: (symbol, trade) => void update(symbol, (s) => ({ ...s, trade: newer(s.trade, trade) })),
        quote: (symbol, quote) => {
          const m = update(symbol, (s) => ({ ...s, quote: newer(s.quote, quote) }));
          const book = m && this.bookOf(m);
          if (book) sink.book(book);
        },
        minuteBar: (symbol, bar) => {
          const m = update(symbol, (s) => ({ ...s, minuteBar: newer(s.minuteBar, bar) }));
          if (m && !this.historyCold(m.id)) sink.candle(m.id, MINUTE, barCandle(bar, MINUTE));
        },
        dailyBar: (symbol, bar) => void update(symbol, (s) => ({ ...s, ...daily(s, bar, undefined) })),
      },
      this.deps.upstream,
      this.deps.logger,
    );
    return this.runStream(stream);
  }

  async backfillHistory(stores: HistoryStores): Promise<void> {
    await this.leadWith(stores, () => alpacaHistory(this.upstreamState, stores), ALPACA_REFRESH_MS);
  }
}

/**
 * The daily bar and the previous one after a new daily bar (from a snapshot, with its previous
 * one, or streamed alone): a bar of a later day makes the one before it the previous session's;
 * an older one changes nothing.
 */
function daily(s: SymbolState, bar: VenueBar | undefined, prev: VenueBar | undefined): Pick<SymbolState, 'dailyBar' | 'prevDailyBar'> {
  if (!bar || (s.dailyBar && bar.time < s.dailyBar.time)) return { dailyBar: s.dailyBar, prevDailyBar: s.prevDailyBar };
  const previous = prev ?? (s.dailyBar && s.dailyBar.time < bar.time ? s.dailyBar : s.prevDailyBar);
  return { dailyBar: bar, prevDailyBar: previous };
}
