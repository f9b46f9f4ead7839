import { describe, expect, it } from 'vitest';
import { NO_KIND_FIGURES, type MarketSnapshot, type OrderBookSnapshot } from '../../src/domain/market.js';
import type { SnapshotCache } from '../../src/market-data/snapshot-cache.js';

export const snapshot = (marketId: string, price: string, receivedAt = 1_000): MarketSnapshot => ({
  marketId,
  price,
  change24hPct: '0.5',
  high24h: price,
  low24h: price,
  volume24h: '10',
  ...NO_KIND_FIGURES,
  volumeDelta: '1',
  sourceTime: receivedAt,
  receivedAt,
});

/** The behaviour every SnapshotCache implementation must have. */
export function snapshotCacheContract(name: string, make: () => Promise<SnapshotCache>) {
  describe(`SnapshotCache contract: ${name}`, () => {
    it('keeps the latest market snapshot per market and reads several in order', async () => {
      const cache = await make();
      await cache.putMarket(snapshot('A', '1'));
      await cache.putMarket(snapshot('B', '2'));
      await cache.putMarket(snapshot('A', '3', 2_000));
      expect(await cache.getMarket('A')).toEqual(snapshot('A', '3', 2_000));
      expect(await cache.getMarkets(['B', 'missing', 'A'])).toEqual([snapshot('B', '2'), undefined, snapshot('A', '3', 2_000)]);
    });

    it('stores order books and source health', async () => {
      const cache = await make();
      const book: OrderBookSnapshot = { marketId: 'A', bids: [{ price: '1', size: '2', cumulativeSize: '2' }], asks: [], sourceTime: 5, receivedAt: 6 };
      await cache.putOrderBook(book);
      expect(await cache.getOrderBook('A')).toEqual(book);
      expect(await cache.getOrderBook('B')).toBeUndefined();
      const health = { sourceId: 's', status: 'down' as const, lastAttemptAt: 1, lastSuccessAt: null, lastError: 'x', consecutiveFailures: 2 };
      await cache.putSourceHealth(health);
      expect(await cache.getSourceHealth('s')).toEqual(health);
      expect(await cache.listSourceHealth()).toEqual([health]);
    });
  });
}
