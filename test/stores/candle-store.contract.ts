import { describe, expect, it } from 'vitest';
import type { CandleStore } from '../../src/market-data/candle-store.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** The behaviour every CandleStore implementation must have. */
export function candleStoreContract(name: string, make: () => Promise<CandleStore>) {
  describe(`CandleStore contract: ${name}`, () => {
    it('folds observations into every tier: open, high, low, close and summed volume', async () => {
      const store = await make();
      const t0 = 10 * HOUR;
      await store.record('M', { time: t0 + 1_000, price: '100', volume: '1' });
      await store.record('M', { time: t0 + 20_000, price: '105.5', volume: '2.25' });
      await store.record('M', { time: t0 + 40_000, price: '99', volume: '0.75' });
      await store.record('M', { time: t0 + MIN + 1, price: '101', volume: '1' });
      expect(await store.range('M', MIN, 0, t0 + HOUR)).toEqual([
        { start: t0, open: '100', high: '105.5', low: '99', close: '99', volume: '4' },
        { start: t0 + MIN, open: '101', high: '101', low: '101', close: '101', volume: '1' },
      ]);
      expect(await store.range('M', HOUR, 0, t0 + HOUR)).toEqual([{ start: t0, open: '100', high: '105.5', low: '99', close: '101', volume: '5' }]);
    });

    it('compares prices as decimals, not strings', async () => {
      const store = await make();
      await store.record('D', { time: 0, price: '9.5', volume: '0' });
      await store.record('D', { time: 1, price: '10.25', volume: '0' });
      const [c] = await store.range('D', MIN, 0, 0);
      expect(c).toMatchObject({ high: '10.25', low: '9.5' });
    });

    it('ignores a late observation for a bucket already closed', async () => {
      const store = await make();
      await store.record('L', { time: 2 * MIN, price: '1', volume: '1' });
      await store.record('L', { time: MIN, price: '5', volume: '1' });
      expect((await store.range('L', MIN, 0, 10 * MIN)).map((c) => c.start)).toEqual([2 * MIN]);
    });

    it('reads inclusive ranges, reports the earliest candle and keeps markets apart', async () => {
      const store = await make();
      const candles = [0, 1, 2, 3, 4].map((i) => ({ start: i * MIN, open: '1', high: '1', low: '1', close: '1', volume: '1' }));
      await store.putCandles('R', MIN, candles);
      await store.putCandles('S', MIN, candles.slice(3));
      expect((await store.range('R', MIN, MIN, 3 * MIN)).map((c) => c.start)).toEqual([MIN, 2 * MIN, 3 * MIN]);
      expect(await store.earliest('R', MIN)).toBe(0);
      expect(await store.earliest('S', MIN)).toBe(3 * MIN);
      expect(await store.earliest('none', MIN)).toBeUndefined();
      expect(await store.range('none', MIN, 0, 10 * MIN)).toEqual([]);
    });

    it('upserts a venue’s candles: one with a stored start replaces it, others go in order, the rest are kept; latest is the newest', async () => {
      const store = await make();
      const candle = (i: number, close: string) => ({ start: i * MIN, open: '1', high: close, low: '1', close, volume: '1' });
      expect(await store.latest('U', MIN)).toBeUndefined();
      await store.upsertCandles('U', MIN, [candle(1, '1'), candle(3, '3'), candle(5, '5')]);
      // A sparse venue: minute 4 had no trade and stays absent; minute 5 was open and changed.
      await store.upsertCandles('U', MIN, [candle(2, '2'), candle(5, '5.5'), candle(6, '6')]);
      const stored = await store.range('U', MIN, 0, 10 * MIN);
      expect(stored.map((c) => [c.start / MIN, c.close])).toEqual([
        [1, '1'],
        [2, '2'],
        [3, '3'],
        [5, '5.5'],
        [6, '6'],
      ]);
      expect(await store.latest('U', MIN)).toBe(6 * MIN);
      expect(await store.earliest('U', MIN)).toBe(MIN);
      expect(await store.latest('U', HOUR)).toBeUndefined(); // a tier is written only when asked
    });

    it('prunes each tier to its retention', async () => {
      const store = await make();
      const minuteTier = store.tiers.find((t) => t.resolutionMs === MIN)!;
      const now = minuteTier.retentionMs + 10 * MIN;
      await store.putCandles(
        'P',
        MIN,
        [0, 9, 10, 11].map((i) => ({ start: i * MIN, open: '1', high: '1', low: '1', close: '1', volume: '1' })),
      );
      await store.prune(now);
      expect(await store.earliest('P', MIN)).toBe(10 * MIN);
    });
  });
}
