import { describe, expect, it } from 'vitest';
import type { SpendingLedger } from '../../src/sources/spending-ledger.js';

/** The behaviour every SpendingLedger must have: `make` takes the clock its minute is measured on. */
export function spendingLedgerContract(name: string, make: () => Promise<SpendingLedger>) {
  describe(`SpendingLedger contract: ${name}`, () => {
    it('answers what was spent on a venue since a time, oldest first, venues apart; the same weight twice is two requests', async () => {
      const ledger = await make();
      const now = Date.now();
      await ledger.spend('hl', { at: now - 50_000, weight: 20 });
      await ledger.spend('hl', { at: now - 10_000, weight: 2 });
      await ledger.spend('hl', { at: now - 10_000, weight: 2 });
      await ledger.spend('other', { at: now - 5_000, weight: 7 });
      expect(await ledger.recent('hl', now - 60_000)).toEqual([
        { at: now - 50_000, weight: 20 },
        { at: now - 10_000, weight: 2 },
        { at: now - 10_000, weight: 2 },
      ]);
      expect(await ledger.recent('hl', now - 20_000)).toEqual([
        { at: now - 10_000, weight: 2 },
        { at: now - 10_000, weight: 2 },
      ]);
      expect(await ledger.recent('other', now - 60_000)).toEqual([{ at: now - 5_000, weight: 7 }]);
      expect(await ledger.recent('none', now - 60_000)).toEqual([]);
    });

    it('forgets what left the minute', async () => {
      const ledger = await make();
      const now = Date.now();
      await ledger.spend('hl', { at: now - 120_000, weight: 50 });
      await ledger.spend('hl', { at: now, weight: 1 });
      expect(await ledger.recent('hl', 0)).toEqual([{ at: now, weight: 1 }]);
    });
  });
}
