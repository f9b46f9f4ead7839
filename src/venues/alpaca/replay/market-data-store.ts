/**
 * What the fake's market-data API knows, in Alpaca's wire shapes (compact keys, numbers as JSON
 * numbers, RFC 3339 timestamps as strings). Filled by `seed-market-data.ts` from the recordings
 * plus deterministic synthesis, and changed by the test controls (`setPrice`, `setBars`).
 */
import { formatWhole, newYorkMidnight } from './venue-time.js';

export interface WireBar {
  t: string;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  n?: number;
  vw?: number;
}

export interface WireTrade {
  t: string;
  x: string;
  p: number;
  s: number;
  c: string[];
  i: number;
  z: string;
}

export interface WireQuote {
  t: string;
  ax: string;
  ap: number;
  as: number;
  bx: string;
  bp: number;
  bs: number;
  c: string[];
  z?: string;
}

export interface WireSnapshot {
  latestTrade: WireTrade | null;
  latestQuote: WireQuote | null;
  minuteBar: WireBar | null;
  dailyBar: WireBar | null;
  prevDailyBar: WireBar | null;
}

export type TimeframeUnit = 'Min' | 'Hour' | 'Day' | 'Week' | 'Month';

export interface Timeframe {
  amount: number;
  unit: TimeframeUnit;
}

const UNIT_ALIASES: Record<string, TimeframeUnit> = {
  Min: 'Min',
  T: 'Min',
  Hour: 'Hour',
  H: 'Hour',
  Day: 'Day',
  D: 'Day',
  Week: 'Week',
  W: 'Week',
  Month: 'Month',
  M: 'Month',
};

/**
 * Alpaca's timeframe grammar: `[1-59]Min` (or `T`), `[1-23]Hour` (or `H`), `1Day` (`D`),
 * `1Week` (`W`), `1|2|3|4|6|12Month` (`M`). Returns undefined when the value is not one of them.
 */
export function parseTimeframe(value: string): Timeframe | undefined {
  const match = /^(\d{1,2})(Min|T|Hour|H|Day|D|Week|W|Month|M)$/.exec(value);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = UNIT_ALIASES[match[2] ?? ''];
  if (!unit || amount < 1) return undefined;
  if (unit === 'Min' && amount > 59) return undefined;
  if (unit === 'Hour' && amount > 23) return undefined;
  if ((unit === 'Day' || unit === 'Week') && amount !== 1) return undefined;
  if (unit === 'Month' && ![1, 2, 3, 4, 6, 12].includes(amount)) return undefined;
  return { amount, unit };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Folds bars (ascending) into buckets keyed by `bucketOf(t)`. */
function aggregate(bars: readonly WireBar[], bucketOf: (t: Date) => Date): WireBar[] {
  const out: WireBar[] = [];
  let current: { start: number; bar: WireBar; notional: number } | undefined;
  for (const bar of bars) {
    const start = bucketOf(new Date(bar.t)).getTime();
    if (!current || current.start !== start) {
      if (current) out.push(finish(current));
      current = { start, bar: { ...bar, t: formatWhole(new Date(start)), n: bar.n ?? 0 }, notional: (bar.vw ?? bar.c) * bar.v };
      continue;
    }
    const acc = current.bar;
    acc.h = Math.max(acc.h, bar.h);
    acc.l = Math.min(acc.l, bar.l);
    acc.c = bar.c;
    acc.v += bar.v;
    acc.n = (acc.n ?? 0) + (bar.n ?? 0);
    current.notional += (bar.vw ?? bar.c) * bar.v;
  }
  if (current) out.push(finish(current));
  return out;

  function finish(entry: { bar: WireBar; notional: number }): WireBar {
    return { ...entry.bar, vw: entry.bar.v > 0 ? round(entry.notional / entry.bar.v, 6) : entry.bar.c };
  }
}

function sortByTime<T extends { t: string }>(items: T[]): T[] {
  return items.sort((a, b) => Date.parse(a.t) - Date.parse(b.t));
}

export class MarketDataStore {
  private readonly minuteBars = new Map<string, WireBar[]>();
  private readonly dailyBars = new Map<string, WireBar[]>();
  private readonly trades = new Map<string, WireTrade>();
  private readonly quotes = new Map<string, WireQuote>();
  private readonly latestBars = new Map<string, WireBar>();
  private readonly snapshotBars = new Map<string, Pick<WireSnapshot, 'minuteBar' | 'dailyBar' | 'prevDailyBar'>>();
  private tradeIds = 900_000;

  /** Every symbol the store has anything for, sorted. */
  symbols(): string[] {
    const all = new Set([...this.minuteBars.keys(), ...this.dailyBars.keys(), ...this.trades.keys(), ...this.quotes.keys(), ...this.latestBars.keys()]);
    return [...all].sort();
  }

  has(symbol: string): boolean {
    return this.symbols().includes(symbol);
  }

  /** Replaces a symbol's minute (`1Min`) or daily (`1Day`) history; other timeframes are derived. */
  setBars(symbol: string, base: '1Min' | '1Day', bars: readonly WireBar[]): void {
    (base === '1Min' ? this.minuteBars : this.dailyBars).set(symbol, sortByTime(bars.map((b) => ({ ...b }))));
  }

  setLatestTrade(symbol: string, trade: WireTrade): void {
    this.trades.set(symbol, { ...trade });
  }

  setLatestQuote(symbol: string, quote: WireQuote): void {
    this.quotes.set(symbol, { ...quote });
  }

  setLatestBar(symbol: string, bar: WireBar): void {
    this.latestBars.set(symbol, { ...bar });
  }

  setSnapshotBars(symbol: string, bars: Pick<WireSnapshot, 'minuteBar' | 'dailyBar' | 'prevDailyBar'>): void {
    this.snapshotBars.set(symbol, bars);
  }

  /** A symbol's bars at a timeframe, ascending. Minute and hour frames fold the minute bars; week and month fold the daily bars. */
  bars(symbol: string, timeframe: Timeframe): WireBar[] {
    const minutes = this.minuteBars.get(symbol) ?? [];
    const days = this.dailyBars.get(symbol) ?? [];
    switch (timeframe.unit) {
      case 'Min':
        if (timeframe.amount === 1) return minutes.map((b) => ({ ...b }));
        return aggregate(minutes, (t) => new Date(Math.floor(t.getTime() / (timeframe.amount * 60_000)) * timeframe.amount * 60_000));
      case 'Hour':
        return aggregate(minutes, (t) => new Date(Math.floor(t.getTime() / (timeframe.amount * 3_600_000)) * timeframe.amount * 3_600_000));
      case 'Day':
        return days.map((b) => ({ ...b }));
      case 'Week':
        return aggregate(days, (t) => {
          const midnight = newYorkMidnight(t);
          const back = (midnight.getUTCDay() + 6) % 7;
          return newYorkMidnight(new Date(midnight.getTime() - back * 86_400_000 + 12 * 3_600_000));
        });
      case 'Month':
        return aggregate(days, (t) => {
          const d = new Date(t.getTime() + 12 * 3_600_000);
          const monthIndex = d.getUTCFullYear() * 12 + d.getUTCMonth();
          const bucket = Math.floor(monthIndex / timeframe.amount) * timeframe.amount;
          return newYorkMidnight(new Date(Date.UTC(Math.floor(bucket / 12), bucket % 12, 1, 12)));
        });
    }
  }

  latestTrade(symbol: string): WireTrade | undefined {
    const trade = this.trades.get(symbol);
    return trade && { ...trade };
  }

  latestQuote(symbol: string): WireQuote | undefined {
    const quote = this.quotes.get(symbol);
    return quote && { ...quote };
  }

  latestBar(symbol: string): WireBar | undefined {
    const bar = this.latestBars.get(symbol) ?? this.minuteBars.get(symbol)?.at(-1);
    return bar && { ...bar };
  }

  /** Alpaca's snapshot of a symbol, or null for a symbol the store does not know (as the API maps unknown symbols). */
  snapshot(symbol: string): WireSnapshot | null {
    if (!this.has(symbol)) return null;
    const recorded = this.snapshotBars.get(symbol);
    const days = this.dailyBars.get(symbol) ?? [];
    return {
      latestTrade: this.latestTrade(symbol) ?? null,
      latestQuote: this.latestQuote(symbol) ?? null,
      minuteBar: recorded?.minuteBar ?? this.latestBar(symbol) ?? null,
      dailyBar: recorded?.dailyBar ?? days.at(-1) ?? null,
      prevDailyBar: recorded ? recorded.prevDailyBar : (days.at(-2) ?? null),
    };
  }

  /** Best bid / ask / last for order pricing: the latest quote when there is one, else the latest trade. */
  prices(symbol: string): { bid: number; ask: number; last: number } | undefined {
    const trade = this.trades.get(symbol);
    const quote = this.quotes.get(symbol);
    const last = trade?.p ?? (quote ? (quote.bp + quote.ap) / 2 : this.latestBar(symbol)?.c);
    if (last === undefined) return undefined;
    return { bid: quote?.bp ?? last, ask: quote?.ap ?? last, last };
  }

  /**
   * Moves a symbol's price: a new latest trade at `price` and a quote one cent either side,
   * stamped `at`. Returns both so the caller can publish them on the stream.
   */
  setPrice(symbol: string, price: number, at: Date, spread = 0.01): { trade: WireTrade; quote: WireQuote } {
    const t = at.toISOString().replace(/Z$/, '000000Z');
    this.tradeIds += 1;
    const trade: WireTrade = { t, x: 'V', p: price, s: 100, c: ['@'], i: this.tradeIds, z: 'C' };
    const quote: WireQuote = { t, ax: 'V', ap: round(price + spread, 4), as: 1, bx: 'V', bp: round(price - spread, 4), bs: 1, c: ['R'], z: 'C' };
    this.trades.set(symbol, trade);
    this.quotes.set(symbol, quote);
    return { trade: { ...trade }, quote: { ...quote } };
  }
}
