import { describe, expect, it } from 'vitest';
import type { Candle, PriceObservation } from '../src/domain/candle.js';
import { encodeScaled, formatScaled } from '../src/domain/scaled-decimal.js';
import { backfillCandles, type CandleMemo } from '../src/venues/simulation/simulated-candles.js';
import { loadHistory, RESOLUTION_MS } from '../src/market-data/candle-history.js';
import { HISTORY_RESOLUTIONS } from '../src/market-data/history-limits.js';
import { simulatedCatalogue } from '../src/venues/simulation/simulated-catalogue.js';
import { MemoryCandleStore } from '../src/stores/memory/memory-candle-store.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
// A Saturday afternoon and a weekday morning (UTC): equities closed and open.
const NOWS = [Date.UTC(2026, 10, 21, 15, 7, 13, 250), Date.UTC(2026, 10, 24, 14, 59, 59, 999)];
// Every kind, of today's markets and generated ones, with 0 to 6 price decimals.
const MARKETS = simulatedCatalogue(26).filter((_, i) => [0, 3, 6, 8, 13, 25].includes(i));
// Closed candles sampled once for every eager backfill here (a memo also makes a backfill eager).
const memo: CandleMemo = new Map();

describe('scaled decimals: amounts in typed arrays, written back as the same string', () => {
  it('round-trips every plain decimal string it accepts, and refuses the ones it cannot give back', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 5_000; i++) {
      const s = ((next() - 0.3) * 10 ** Math.floor(next() * 12 - 3)).toFixed(Math.floor(next() * 9));
      const encoded = encodeScaled(s);
      if (encoded) expect(formatScaled(...encoded)).toBe(s);
      else expect(s).toMatch(/^-0(\.0*)?$/); // toFixed's "-0.00" is the only refusal in this spread
    }
    for (const s of ['0', '7', '0.5', '64012.50', '-0.25', '100.000', '0.00000001', '9007199254740991']) expect(formatScaled(...encodeScaled(s)!)).toBe(s);
    for (const s of ['', '-', '.5', '5.', '007', '-0', '1e3', '+1', ' 1', '9007199254740993', '1.2.3', 'NaN']) expect(encodeScaled(s)).toBeUndefined();
  });

  it('stores candles with odd amounts as given (a series that cannot encode keeps objects)', async () => {
    const store = new MemoryCandleStore();
    const plain: Candle = { start: 0, open: '1.50', high: '2', low: '0.0001', close: '1.5', volume: '0' };
    const odd: Candle = { start: MIN, open: '1e3', high: '007', low: '-0', close: '.5', volume: '1.' };
    const after: Candle = { start: 2 * MIN, open: '3', high: '3', low: '3', close: '3', volume: '3.000' };
    await store.putCandles('X', MIN, [plain, odd, after]);
    expect(await store.range('X', MIN, 0, 3 * MIN)).toEqual([plain, odd, after]);
    await store.record('X', { time: 2 * MIN + 5, price: '2.10', volume: '0.50' });
    expect(await store.range('X', MIN, 2 * MIN, 2 * MIN)).toEqual([{ start: 2 * MIN, open: '3', high: '3', low: '2.10', close: '2.10', volume: '3.5' }]);
  });
});

describe('compact candle store: the same history as candles held as objects', () => {
  for (const now of NOWS) {
    it(`reads back exactly the sampled candles of every tier (${new Date(now).toISOString()})`, async () => {
      const objects = new Map<string, Candle[]>();
      const recorder = new MemoryCandleStore();
      // The backfill's own candles, as objects, through a store that keeps whatever it is given.
      await backfillCandles(
        { ...recorder, tiers: recorder.tiers, putCandles: async (id, res, c) => void objects.set(`${id}|${res}`, [...c]) } as MemoryCandleStore,
        MARKETS,
        now,
        new Map(),
      );
      const store = new MemoryCandleStore();
      await backfillCandles(store, MARKETS, now, memo);
      for (const m of MARKETS) {
        for (const tier of store.tiers) {
          const expected = objects.get(`${m.id}|${tier.resolutionMs}`)!;
          const got = await store.range(m.id, tier.resolutionMs, 0, now);
          expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
        }
      }
    });

    it(`a deferred backfill reads as an eager one, with live observations and prunes in between, at every resolution (${new Date(now).toISOString()})`, async () => {
      const eager = new MemoryCandleStore();
      const deferred = new MemoryCandleStore();
      await backfillCandles(eager, MARKETS, now, memo);
      await backfillCandles(deferred, MARKETS, now);
      // Ingest after the backfill: the open bucket goes on, a late observation, later buckets.
      const observations = (m: (typeof MARKETS)[number]): PriceObservation[] =>
        [0, 900, -3 * MIN, 40_000, 61_000, 2 * DAY + 5].map((dt, i) => ({
          time: now + dt,
          price: (Number(m.basePrice) * (1 + (i % 3) / 100)).toFixed(m.priceDecimals),
          volume: i % 2 ? '0.50' : '2',
        }));
      for (const m of MARKETS) for (const o of observations(m)) for (const s of [eager, deferred]) await s.record(m.id, o);
      for (const s of [eager, deferred]) await s.prune(now + 2 * DAY + 10 * MIN);
      const later = now + 2 * DAY + 10 * MIN;
      for (const m of MARKETS) {
        for (const resolution of HISTORY_RESOLUTIONS) {
          for (const from of [undefined, later - 400 * RESOLUTION_MS[resolution]]) {
            const q = { marketId: m.id, resolution, from, to: later, limit: 5_000, now: later };
            const [a, b] = [await loadHistory(eager, q), await loadHistory(deferred, q)];
            expect(JSON.stringify(b)).toBe(JSON.stringify(a));
          }
        }
      }
    });
  }
});
