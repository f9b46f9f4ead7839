import type { MarketDefinition } from '../../domain/market.js';
import type { CandleStore } from '../../market-data/candle-store.js';
import type { FundingStore } from '../../market-data/funding-store.js';
import { backfillCandles } from './simulated-candles.js';
import { backfillFunding } from './simulated-funding.js';

/**
 * Backfills the history that is not stored yet: everything on a fresh store (embedded mode),
 * nothing a previous ingestion leader already wrote to Redis, so a takeover does not overwrite
 * candles folded from live observations.
 */
export async function backfillMissingHistory(candles: CandleStore, funding: FundingStore, markets: readonly MarketDefinition[], now: number): Promise<void> {
  const withoutCandles: MarketDefinition[] = [];
  const withoutFunding: MarketDefinition[] = [];
  for (const m of markets) {
    const earliest = await Promise.all(candles.tiers.map((t) => candles.earliest(m.id, t.resolutionMs)));
    if (earliest.some((e) => e === undefined)) withoutCandles.push(m);
    if (m.kind === 'perpetual' && (await funding.latest(m.id, 1)).length === 0) withoutFunding.push(m);
  }
  await backfillCandles(candles, withoutCandles, now);
  await backfillFunding(funding, withoutFunding, now);
}
