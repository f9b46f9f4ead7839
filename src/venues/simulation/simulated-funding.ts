import { Decimal } from '../../domain/decimal.js';
import type { MarketDefinition } from '../../domain/market.js';
import { FUNDING_RETENTION, type FundingStore } from '../../market-data/funding-store.js';
import { TIME } from './price-process.js';
import { fundingRateAt } from './simulated-quotes.js';

/** Fills 30 days of settled hourly funding for every perpetual, from the simulator's past. */
export async function backfillFunding(store: FundingStore, markets: readonly MarketDefinition[], now: number): Promise<void> {
  const lastSettled = Math.floor(now / TIME.HOUR) * TIME.HOUR;
  for (const m of markets.filter((x) => x.kind === 'perpetual')) {
    for (let i = FUNDING_RETENTION - 1; i >= 0; i--) {
      const time = lastSettled - i * TIME.HOUR;
      await store.append(m.id, { time, rate: new Decimal(fundingRateAt(m, time - 1)).toFixed(8) });
    }
  }
}
