import type { PerpAsset } from './catalogue.js';
import { decimalString, priceString, roundPrice, sizeString } from './numbers.js';
import { signedUnit, unit } from './random.js';
import type { Candle, CandleInterval, FundingItem } from './wire.js';

/**
 * Synthesized time series. Every value is a pure function of the asset, the time and the purpose,
 * so a candle or a funding item is the same in every run and in every overlapping request.
 *
 * Price path: P(t) = referencePx · exp(g(t) − g(anchor)), where g is a sum of a weekly, a daily and
 * a 97-minute wave and a per-minute jitter (about ±3 % in all). The anchor is the time the mids were
 * recorded, so P equals the recorded mid at the recording instant.
 */

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** Candles the venue keeps per coin and interval (the most recent ones). */
export const CANDLE_RETENTION = 5000;
/** The most items a time-range info request returns. */
export const PAGE_LIMIT = 500;

const FIXED_INTERVAL_MS: Record<Exclude<CandleInterval, '1M'>, number> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '1w': 7 * DAY,
};
/** Weeks open on Monday 00:00 UTC (1970-01-05 was a Monday); other fixed intervals are aligned on the epoch. */
const WEEK_ORIGIN = 4 * DAY;

function g(coin: string, t: number): number {
  const phase = (k: string) => unit(coin, 'phase', k) * 2 * Math.PI;
  return (
    0.018 * Math.sin((2 * Math.PI * t) / (7 * DAY) + phase('w')) +
    0.009 * Math.sin((2 * Math.PI * t) / DAY + phase('d')) +
    0.003 * Math.sin((2 * Math.PI * t) / (97 * MINUTE) + phase('m')) +
    0.0008 * signedUnit(coin, 'jitter', Math.floor(t / MINUTE))
  );
}

export function pathPrice(asset: PerpAsset, t: number, anchor: number): number {
  return asset.referencePx * Math.exp(g(asset.name, t) - g(asset.name, anchor));
}

/** The open time of the candle holding `time`. */
export function candleOpen(interval: CandleInterval, time: number): number {
  if (interval === '1M') {
    const d = new Date(time);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const ms = FIXED_INTERVAL_MS[interval];
  const origin = interval === '1w' ? WEEK_ORIGIN : 0;
  return Math.floor((time - origin) / ms) * ms + origin;
}

/** The open time of the candle after the one opening at `open`. */
export function nextOpen(interval: CandleInterval, open: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return open + FIXED_INTERVAL_MS[interval];
}

function previousOpen(interval: CandleInterval, open: number, steps: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - steps, 1);
  }
  return open - steps * FIXED_INTERVAL_MS[interval];
}

/** Whether the minute opening at `minute` had no trade (sparse candles). */
function emptyMinute(coin: string, minute: number, ratio: number): boolean {
  return ratio > 0 && unit(coin, 'empty', minute) < ratio;
}

/**
 * Whether the candle opening at `open` exists when a share `ratio` of minutes have no trade: a 1m
 * candle is absent when its minute is empty, a candle up to 1h when all its minutes are; longer
 * candles always exist (unless every minute is empty, ratio ≥ 1).
 */
export function candlePresent(coin: string, interval: CandleInterval, open: number, ratio: number): boolean {
  if (ratio <= 0) return true;
  if (ratio >= 1) return false;
  const close = nextOpen(interval, open);
  if (close - open > HOUR) return true;
  for (let minute = open; minute < close; minute += MINUTE) if (!emptyMinute(coin, minute, ratio)) return true;
  return false;
}

/** One synthesized candle; the candle still open at `now` closes at P(now) with part of its volume. */
export function synthCandle(asset: PerpAsset, interval: CandleInterval, open: number, now: number, anchor: number): Candle {
  const close = nextOpen(interval, open);
  const live = now < close;
  const span = (live ? Math.max(now, open + 1) : close) - open;
  const sz = asset.szDecimals;
  const o = roundPrice(pathPrice(asset, open, anchor), sz);
  const c = roundPrice(pathPrice(asset, live ? now : close, anchor), sz);
  const wick = 0.0015 * Math.sqrt(span / MINUTE);
  const h = Math.max(o, c, roundPrice(Math.max(o, c) * (1 + Math.min(0.05, wick * unit(asset.name, 'high', interval, open))), sz));
  const l = Math.min(o, c, roundPrice(Math.min(o, c) * (1 - Math.min(0.05, wick * unit(asset.name, 'low', interval, open))), sz));
  const share = span / DAY;
  const volume = (asset.dailyNotional / asset.referencePx) * share * (0.3 + 1.4 * unit(asset.name, 'volume', interval, open)) || 0;
  const trades = Math.max(1, Math.round((asset.dailyNotional / 2000) * share * (0.3 + 1.4 * unit(asset.name, 'trades', interval, open))));
  return {
    T: close - 1,
    c: priceString(c, sz),
    h: priceString(h, sz),
    i: interval,
    l: priceString(l, sz),
    n: trades,
    o: priceString(o, sz),
    s: asset.name,
    t: open,
    v: sizeString(Math.max(volume, 10 ** -sz), sz),
  };
}

export interface CandleQuery {
  asset: PerpAsset;
  interval: CandleInterval;
  startTime: number;
  endTime: number | undefined;
  now: number;
  anchor: number;
  sparseRatio: number;
  /** Recorded candles of this coin and interval, by open time; they replace synthesized ones. */
  recorded: ReadonlyMap<number, Candle> | undefined;
}

/**
 * The candles a candleSnapshot answers: those with `t <= endTime` and `T >= startTime` (the
 * candle holding startTime is included, as in the recorded answer), within the venue's 5000 most
 * recent candles, not before listing nor after delisting, none after the venue's now; absent
 * minutes left out when sparse. At most 5000.
 */
export function candleSnapshot(q: CandleQuery): Candle[] {
  const current = candleOpen(q.interval, q.now);
  const oldest = previousOpen(q.interval, current, CANDLE_RETENTION - 1);
  const end = Math.min(q.endTime ?? q.now, q.now, q.asset.delistedAt ?? Infinity);
  if (end < q.startTime) return [];
  let open = Math.max(candleOpen(q.interval, q.startTime), oldest, candleOpen(q.interval, q.asset.listedAt));
  const last = candleOpen(q.interval, end);
  const candles: Candle[] = [];
  while (open <= last && candles.length < CANDLE_RETENTION) {
    const recorded = q.recorded?.get(open);
    if (recorded) candles.push(recorded);
    else if (candlePresent(q.asset.name, q.interval, open, q.sparseRatio)) candles.push(synthCandle(q.asset, q.interval, open, q.now, q.anchor));
    open = nextOpen(q.interval, open);
  }
  return candles;
}

/** The funding formula: premium plus the interest (0.01 % per 8 h, hourly) clamped to ±0.05 %. */
export function fundingFromPremium(premium: number): number {
  const interest = 0.0000125;
  return premium + Math.max(-0.0005, Math.min(0.0005, interest - premium));
}

/** The synthesized hourly funding item at the hour `hour` (a few hundred ms late, as recorded). */
export function synthFunding(asset: PerpAsset, hour: number): FundingItem {
  const premium = 0.0004 * signedUnit(asset.name, 'premium', hour) + 0.00015 * Math.sin((2 * Math.PI * hour) / (9 * DAY) + unit(asset.name, 'fphase') * 6);
  return {
    coin: asset.name,
    fundingRate: decimalString(fundingFromPremium(premium), 8),
    premium: decimalString(premium, 8),
    time: hour + Math.floor(unit(asset.name, 'lag', hour) * 400),
  };
}

export interface FundingQuery {
  asset: PerpAsset;
  startTime: number;
  endTime: number | undefined;
  now: number;
  /** Recorded items of this coin, ascending; synthesized items start after the last one. */
  recorded: readonly FundingItem[] | undefined;
  /** A replacement series (e.g. exactly 500 items), ascending. */
  series: readonly FundingItem[] | undefined;
}

/** fundingHistory: items with startTime ≤ time ≤ endTime (default now), ascending, at most 500. */
export function fundingHistory(q: FundingQuery): FundingItem[] {
  const end = Math.min(q.endTime ?? q.now, q.now);
  const inRange = (item: FundingItem) => item.time >= q.startTime && item.time <= end;
  if (q.series) return q.series.filter(inRange).slice(0, PAGE_LIMIT);
  const items: FundingItem[] = [];
  const recorded = q.recorded ?? [];
  for (const item of recorded) {
    if (items.length >= PAGE_LIMIT) return items;
    if (inRange(item)) items.push(item);
  }
  const lastRecorded = recorded.at(-1)?.time;
  const firstHour = lastRecorded !== undefined ? Math.floor(lastRecorded / HOUR) * HOUR + HOUR : Math.ceil(q.asset.listedAt / HOUR) * HOUR;
  const stop = Math.min(end, q.asset.delistedAt ?? Infinity);
  for (let hour = Math.max(firstHour, Math.floor(q.startTime / HOUR) * HOUR); hour <= stop && items.length < PAGE_LIMIT; hour += HOUR) {
    const item = synthFunding(q.asset, hour);
    if (inRange(item)) items.push(item);
  }
  return items;
}

/** Exactly `count` hourly items ending at the last funding hour before `now` (a page boundary on the 500th). */
export function exactFundingSeries(asset: PerpAsset, count: number, now: number): FundingItem[] {
  const lastHour = Math.floor(now / HOUR) * HOUR - HOUR;
  const items: FundingItem[] = [];
  for (let i = count - 1; i >= 0; i--) items.push(synthFunding(asset, lastHour - i * HOUR));
  return items;
}
