import type { Candle } from '../../domain/candle.js';
import type { MarketDefinition } from '../../domain/market.js';
import { backfillVenueTiers } from '../../ingest/venue-candles.js';
import type { HistoryStores } from '../../sources/market-data-source.js';
import { barCandle, venueBar } from './alpaca-quotes.js';
import type { AlpacaUpstream } from './alpaca-upstream.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The venue's timeframe of each stored resolution. */
const TIMEFRAMES: Record<number, { timeframe: string; resolutionMs: number }> = {
  [MINUTE]: { timeframe: '1Min', resolutionMs: MINUTE },
  [HOUR]: { timeframe: '1Hour', resolutionMs: HOUR },
  [DAY]: { timeframe: '1Day', resolutionMs: DAY },
};
/** Every market's candles are fetched again from the newest stored once an hour (what the stream missed while it was down). */
export const ALPACA_REFRESH_MS = HOUR;

/**
 * How a market's history is fetched from Alpaca in the background (run by a BackfillQueue, each
 * page a `background` request within the budget): per stored tier (days, hours, then minutes)
 * the venue's bars from the newest stored candle or the tier's retention, page after page. Alpaca
 * has no bar for an interval without trades (IEX, the free feed, trades less than every minute):
 * nothing is filled in.
 */
export function alpacaHistory(upstream: AlpacaUpstream, stores: HistoryStores, now: () => number = Date.now): (market: MarketDefinition) => Promise<void> {
  return (market) =>
    backfillVenueTiers(stores.candles, market.id, now(), TIMEFRAMES, async ({ timeframe, resolutionMs }, from) => {
      const candles: Candle[] = [];
      const seen = new Set<string>();
      let token: string | undefined;
      do {
        const page = await upstream.bars(market.asset, timeframe, new Date(from), token);
        for (const bar of page.bars[market.asset] ?? []) candles.push(barCandle(venueBar(bar, `${market.asset} ${timeframe} bar`), resolutionMs));
        token = page.nextPageToken ?? undefined;
        // A token seen before would page forever: the venue's answer ends there.
        if (token !== undefined && seen.has(token)) break;
        if (token !== undefined) seen.add(token);
      } while (token !== undefined);
      return candles;
    });
}
