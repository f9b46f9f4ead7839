import type { InfoClient } from '@nktkas/hyperliquid';
import type { MarketDefinition } from '../../domain/market.js';
import { backfillVenueTiers } from '../../ingest/venue-candles.js';
import { FUNDING_RETENTION } from '../../market-data/funding-store.js';
import type { HistoryStores } from '../../sources/market-data-source.js';
import { venueCandle, venueDecimal } from './hyperliquid-quotes.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The venue's name of each stored resolution. */
const INTERVALS: Record<number, '1m' | '1h' | '1d'> = { [MINUTE]: '1m', [HOUR]: '1h', [DAY]: '1d' };
/** `fundingHistory` answers at most this many entries: a full page asks for the next. */
const FUNDING_PAGE = 500;

/** Settled funding is fetched again once an hour has passed (and candles from the newest stored): the backfill's refresh. */
export const HYPERLIQUID_REFRESH_MS = HOUR;

/**
 * How a market's history is fetched from the venue in the background (run by a BackfillQueue,
 * within the venue's budget): per stored tier (days, hours, then minutes) the candles from the
 * newest stored one or the tier's retention, then the settled funding, paged 500 at a time. The
 * venue keeps only the 5,000 most recent candles of an interval, and omits intervals without
 * trades: nothing is filled in.
 */
export function hyperliquidHistory(info: InfoClient, stores: HistoryStores, now: () => number = Date.now): (market: MarketDefinition) => Promise<void> {
  return async (market) => {
    const at = now();
    await backfillVenueTiers(stores.candles, market.id, at, INTERVALS, async (interval, from) => {
      const answer = await info.candleSnapshot({ coin: market.asset, interval, startTime: from, endTime: at });
      return answer.map((c) => venueCandle(c, market.asset));
    });
    await warmFunding(info, stores, market, at);
  };
}

/** Settled hourly funding from the newest stored entry (or the retention), page by page. */
async function warmFunding(info: InfoClient, stores: HistoryStores, market: MarketDefinition, now: number): Promise<void> {
  const [newest] = await stores.funding.latest(market.id, 1);
  let from = newest ? newest.time + 1 : now - FUNDING_RETENTION * HOUR;
  for (;;) {
    const page = await info.fundingHistory({ coin: market.asset, startTime: from, endTime: now });
    for (const entry of page)
      await stores.funding.append(market.id, { time: entry.time, rate: venueDecimal(entry.fundingRate, `${market.asset} funding rate`) });
    if (page.length < FUNDING_PAGE) return;
    from = page[page.length - 1]!.time + 1;
  }
}
