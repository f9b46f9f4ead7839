import type { MarketDefinition } from '../../domain/market.js';
import type { Candle, CandleTier } from '../../domain/candle.js';
import type { CandleStore } from '../../market-data/candle-store.js';
import { isSessionOpen } from './equity-session.js';
import { tradedPriceAt } from './simulated-quotes.js';
import { volumeBetween } from './price-process.js';

const SAMPLES_PER_CANDLE = 12;

/**
 * Closed candles already sampled, per market definition and resolution, by bucket start (null: no
 * trade in the bucket). A closed bucket's candle does not depend on `now`, so a process that
 * backfills many gateways (a test worker) samples each once; production backfills once and passes none.
 */
export type CandleMemo = Map<string, Map<number, Candle | null>>;

/**
 * Fills every candle tier from the simulator's deterministic past, so history has a year of
 * days and a day of minutes on the first request. The current bucket is filled up to `now`.
 * A store that can defer (in memory) samples each series on its first read or in the background,
 * so a large catalogue starts at once; the candles are the same either way.
 */
export async function backfillCandles(store: CandleStore, markets: readonly MarketDefinition[], now: number, memo?: CandleMemo): Promise<void> {
  for (const m of markets) {
    const definition = memo ? JSON.stringify(m) : '';
    for (const tier of store.tiers) {
      const res = tier.resolutionMs;
      let closed = memo?.get(`${definition}|${res}`);
      if (memo && !closed) memo.set(`${definition}|${res}`, (closed = new Map()));
      const produce = () => sampleTier(m, tier, now, closed);
      if (store.deferCandles && !memo) await store.deferCandles(m.id, res, produce);
      else await store.putCandles(m.id, res, produce());
    }
  }
}

function sampleTier(m: MarketDefinition, tier: CandleTier, now: number, closed: Map<number, Candle | null> | undefined): Candle[] {
  const res = tier.resolutionMs;
  const first = Math.floor((now - tier.retentionMs) / res) * res + res;
  const candles: Candle[] = [];
  for (let start = first; start <= now; start += res) {
    const isClosed = start + res <= now + 1;
    let c = isClosed ? closed?.get(start) : undefined;
    if (c === undefined) {
      c = sampleCandle(m, start, Math.min(start + res, now + 1)) ?? null;
      if (isClosed) closed?.set(start, c);
    }
    if (c) candles.push(c);
  }
  return candles;
}

function sampleCandle(m: MarketDefinition, start: number, end: number): Candle | undefined {
  const step = (end - start) / SAMPLES_PER_CANDLE;
  const prices: number[] = [];
  let volume = 0;
  for (let i = 0; i < SAMPLES_PER_CANDLE; i++) {
    const t = Math.floor(start + i * step);
    if (m.kind === 'equity' && !isSessionOpen(t)) continue; // no trades outside the session
    prices.push(tradedPriceAt(m, t));
    volume += volumeBetween(m, t, step);
  }
  if (prices.length === 0) return undefined;
  const dp = m.priceDecimals;
  // Number#toFixed rounds the exact binary value: deterministic, and ~10x cheaper than a Decimal per field.
  const f = (x: number) => x.toFixed(dp);
  return {
    start,
    open: f(prices[0]!),
    high: f(Math.max(...prices)),
    low: f(Math.min(...prices)),
    close: f(prices[prices.length - 1]!),
    volume: volume.toFixed(2),
  };
}
