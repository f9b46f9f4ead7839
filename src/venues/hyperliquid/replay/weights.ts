/**
 * Hyperliquid's REST request weights (docs, "Rate limits and user limits"): 1200 per minute per IP.
 * - info `l2Book`, `allMids`, `clearinghouseState`, `orderStatus`, `spotClearinghouseState`,
 *   `exchangeStatus`: 2; `userRole`: 60; every other documented info request: 20.
 * - Plus one per 20 items returned for `recentTrades`, `historicalOrders`, `userFills`,
 *   `userFillsByTime`, `fundingHistory`, `userFunding`, `nonUserFundingUpdates`, `twapHistory`,
 *   `userTwapSliceFills`, `userTwapSliceFillsByTime`, `delegatorHistory`, `delegatorRewards`,
 *   `validatorStats`; plus one per 60 items for `candleSnapshot`. The docs do not say how partial
 *   groups round: the fake rounds down (floor(items / 20)), so 19 items add nothing and 500 add 25.
 * - exchange actions: 1 + floor(batch_length / 40), batch_length the length of the action's array.
 */

const LIGHT = new Set(['l2Book', 'allMids', 'clearinghouseState', 'orderStatus', 'spotClearinghouseState', 'exchangeStatus']);
const PER_20 = new Set([
  'recentTrades',
  'historicalOrders',
  'userFills',
  'userFillsByTime',
  'fundingHistory',
  'userFunding',
  'nonUserFundingUpdates',
  'twapHistory',
  'userTwapSliceFills',
  'userTwapSliceFillsByTime',
  'delegatorHistory',
  'delegatorRewards',
  'validatorStats',
]);

/** The weight of an info request before counting what it returns. */
export function infoBaseWeight(type: string): number {
  if (LIGHT.has(type)) return 2;
  if (type === 'userRole') return 60;
  return 20;
}

/** The weight of an info request that returned `items` items. */
export function infoWeight(type: string, items: number): number {
  const base = infoBaseWeight(type);
  if (PER_20.has(type)) return base + Math.floor(items / 20);
  if (type === 'candleSnapshot') return base + Math.floor(items / 60);
  return base;
}

/** The weight of an exchange action: 1 + floor(batch length / 40); the batch is the action's array (orders, cancels, modifies). */
export function exchangeWeight(action: unknown): number {
  if (typeof action !== 'object' || action === null) return 1;
  const record = action as Record<string, unknown>;
  const batch = [record.orders, record.cancels, record.modifies].find(Array.isArray) as unknown[] | undefined;
  return 1 + Math.floor((batch?.length ?? 0) / 40);
}
