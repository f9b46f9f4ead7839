import { describe, expect, it } from 'vitest';
import type { FundingStore } from '../../src/market-data/funding-store.js';

const HOUR = 3_600_000;
const entry = (i: number) => ({ time: i * HOUR, rate: `0.0000${i}` });

/** The behaviour every FundingStore implementation must have; `make` takes the retention. */
export function fundingStoreContract(name: string, make: (retention?: number) => Promise<FundingStore>) {
  describe(`FundingStore contract: ${name}`, () => {
    it('returns the most recent entries, oldest first, per market', async () => {
      const store = await make();
      for (const i of [1, 2, 3, 4]) await store.append('BTC-PERP', entry(i));
      await store.append('ETH-PERP', entry(9));
      expect(await store.latest('BTC-PERP', 2)).toEqual([entry(3), entry(4)]);
      expect(await store.latest('BTC-PERP', 10)).toEqual([1, 2, 3, 4].map(entry));
      expect(await store.latest('ETH-PERP', 10)).toEqual([entry(9)]);
      expect(await store.latest('none', 10)).toEqual([]);
      expect(await store.latest('BTC-PERP', 0)).toEqual([]);
    });

    it('ignores an entry at or before the last one', async () => {
      const store = await make();
      await store.append('M', entry(5));
      await store.append('M', entry(5));
      await store.append('M', { time: 5 * HOUR, rate: '1' });
      await store.append('M', entry(3));
      expect(await store.latest('M', 10)).toEqual([entry(5)]);
    });

    it('keeps only the retention', async () => {
      const store = await make(3);
      for (const i of [1, 2, 3, 4, 5]) await store.append('M', entry(i));
      expect(await store.latest('M', 10)).toEqual([3, 4, 5].map(entry));
    });
  });
}
