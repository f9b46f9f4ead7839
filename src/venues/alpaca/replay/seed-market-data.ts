/**
 * Fills a {@link MarketDataStore} from the Alpaca recordings (test/fixtures/alpaca) and, where they
 * are thin, from deterministic synthesis seeded by the recorded values:
 *
 * - recorded: daily bars of AAPL (2022-02-01, 2022-02-02, 2022-03-09, and the snapshot's 2022-03-17
 *   and 2022-03-18) and TSLA (2022-03-09, 2023-09-25..27); the snapshots of AAPL (2022-03-18) and
 *   MSFT (2021-05-03); TSLA's latest trade (2022-07-15); SPY's and TSLA's latest bars (2022-07-26).
 * - synthesized: one regular session of minute bars per symbol (390 bars, on the day of its latest
 *   daily bar, opening at that bar's open); sixty weekdays of daily bars per symbol before its latest
 *   recorded one (recorded days kept as they are); quotes of TSLA and SPY (one cent around the last
 *   price) and SPY's latest trade (at its latest bar's close).
 *
 * The same recordings always give the same data (a seeded generator, no clock, no Math.random).
 */
import type { Recording } from './recording.js';
import { MarketDataStore, type WireBar, type WireQuote, type WireSnapshot, type WireTrade } from './market-data-store.js';
import { formatWhole, newYorkInstant, newYorkMidnight, newYorkWallClock } from './venue-time.js';

/** Seeded 32-bit generator (mulberry32): deterministic per seed, uniform in [0, 1). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a hash of a string, the generator's seed. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function record<T>(recordings: ReadonlyMap<string, Recording>, name: string): T {
  const found = recordings.get(name);
  if (!found) throw new Error(`Alpaca replay: recording ${name}.json is missing`);
  return found.response as T;
}

/** Minute bars of one regular session (09:30–16:00 New York) starting at `open`. */
function synthesizeSession(symbol: string, day: Date, open: number): WireBar[] {
  const wall = newYorkWallClock(day);
  const start = newYorkInstant(wall.year, wall.month, wall.day, 9, 30).getTime();
  const next = generator(hash(`${symbol}|1Min|${formatWhole(day)}`));
  const bars: WireBar[] = [];
  let price = open;
  for (let minute = 0; minute < 390; minute += 1) {
    const o = price;
    const c = round(o * (1 + (next() - 0.5) * 0.002), 4);
    const h = round(Math.max(o, c) * (1 + next() * 0.0006), 4);
    const l = round(Math.min(o, c) * (1 - next() * 0.0006), 4);
    const v = 500 + Math.floor(next() * 20_000);
    const n = 5 + Math.floor(next() * 200);
    bars.push({ t: formatWhole(new Date(start + minute * 60_000)), o, h, l, c, v, n, vw: round((o + h + l + c) / 4, 6) });
    price = c;
  }
  return bars;
}

/** Daily bars for `count` weekdays before `last` (walking back from its open), skipping days already recorded. */
function synthesizeDays(symbol: string, last: WireBar, count: number, recorded: ReadonlySet<string>): WireBar[] {
  const next = generator(hash(`${symbol}|1Day|${last.t}`));
  const out: WireBar[] = [];
  let close = last.o;
  let day = new Date(last.t);
  while (out.length < count) {
    const wall = newYorkWallClock(new Date(day.getTime() + 12 * 3_600_000));
    day = newYorkMidnight(newYorkInstant(wall.year, wall.month, wall.day - 1, 12));
    const weekday = newYorkWallClock(new Date(day.getTime() + 12 * 3_600_000)).weekday;
    if (weekday === 0 || weekday === 6) continue;
    const o = round(close * (1 + (next() - 0.5) * 0.03), 2);
    const h = round(Math.max(o, close) * (1 + next() * 0.01), 2);
    const l = round(Math.min(o, close) * (1 - next() * 0.01), 2);
    const v = 20_000_000 + Math.floor(next() * 80_000_000);
    const bar: WireBar = { t: formatWhole(day), o, h, l, c: close, v, n: Math.floor(v / 120), vw: round((o + h + l + close) / 4, 6) };
    if (!recorded.has(bar.t)) out.push(bar);
    close = o;
  }
  return out;
}

function quoteAround(trade: Pick<WireTrade, 't' | 'p'>): WireQuote {
  return { t: trade.t, ax: 'V', ap: round(trade.p + 0.01, 4), as: 1, bx: 'V', bp: round(trade.p - 0.01, 4), bs: 1, c: ['R'], z: 'C' };
}

/** Builds the store from the recordings (see the module comment for what is recorded and what synthesized). */
export function seedMarketData(recordings: ReadonlyMap<string, Recording>): MarketDataStore {
  const store = new MarketDataStore();
  const daily = new Map<string, Map<string, WireBar>>();
  const addDaily = (symbol: string, bars: readonly WireBar[] | null | undefined): void => {
    const days = daily.get(symbol) ?? new Map<string, WireBar>();
    for (const bar of bars ?? []) days.set(bar.t, bar);
    daily.set(symbol, days);
  };

  for (const name of ['stocks-bars', 'stocks-bars-multi', 'stocks-bars-desc'] as const) {
    const body = record<{ bars: Record<string, WireBar[]> }>(recordings, name);
    for (const [symbol, bars] of Object.entries(body.bars)) addDaily(symbol, bars);
  }

  // Snapshots: AAPL from the 2022 recording, MSFT from the 2021 one (its AAPL is older than the other).
  const snapshots: Record<string, WireSnapshot> = {
    MSFT: record<Record<string, WireSnapshot | null>>(recordings, 'stocks-snapshots-with-null').MSFT as WireSnapshot,
    AAPL: record<Record<string, WireSnapshot>>(recordings, 'stocks-snapshots').AAPL as WireSnapshot,
  };
  for (const [symbol, snapshot] of Object.entries(snapshots)) {
    if (snapshot.latestTrade) store.setLatestTrade(symbol, snapshot.latestTrade);
    if (snapshot.latestQuote) store.setLatestQuote(symbol, snapshot.latestQuote);
    if (snapshot.minuteBar) store.setLatestBar(symbol, snapshot.minuteBar);
    store.setSnapshotBars(symbol, { minuteBar: snapshot.minuteBar, dailyBar: snapshot.dailyBar, prevDailyBar: snapshot.prevDailyBar });
    addDaily(
      symbol,
      [snapshot.prevDailyBar, snapshot.dailyBar].filter((b): b is WireBar => b !== null),
    );
  }

  const latestBars = record<{ bars: Record<string, WireBar> }>(recordings, 'stocks-bars-latest-multi').bars;
  for (const [symbol, bar] of Object.entries(latestBars)) store.setLatestBar(symbol, bar);
  const tsla = record<{ trades: Record<string, WireTrade> }>(recordings, 'stocks-trades-latest-multi').trades.TSLA;
  if (tsla) store.setLatestTrade('TSLA', tsla);

  // SPY has only a latest bar: its trade sits at that bar's close, one second into the next minute.
  const spyBar = latestBars.SPY;
  if (spyBar) {
    const t = new Date(Date.parse(spyBar.t) + 61_000).toISOString().replace(/\.000Z$/, '.000000000Z');
    store.setLatestTrade('SPY', { t, x: 'V', p: spyBar.c, s: 100, c: ['@'], i: 1, z: 'B' });
    addDaily('SPY', []);
  }
  for (const symbol of ['TSLA', 'SPY']) {
    const trade = store.latestTrade(symbol);
    if (trade && !store.latestQuote(symbol)) store.setLatestQuote(symbol, quoteAround(trade));
  }

  for (const [symbol, days] of daily) {
    const recorded = [...days.values()].sort((a, b) => Date.parse(a.t) - Date.parse(b.t));
    const anchor =
      recorded.at(-1) ??
      (() => {
        const bar = store.latestBar(symbol);
        if (!bar) return undefined;
        return { ...bar, t: formatWhole(newYorkMidnight(new Date(bar.t))) };
      })();
    if (!anchor) continue;
    const synthetic = synthesizeDays(symbol, anchor, 60, new Set(days.keys()));
    store.setBars(symbol, '1Day', [...synthetic, ...recorded]);
    store.setBars(symbol, '1Min', synthesizeSession(symbol, new Date(anchor.t), anchor.o));
  }
  return store;
}
