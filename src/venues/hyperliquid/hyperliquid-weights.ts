/**
 * Hyperliquid's request weights (docs, "Rate limits and user limits"): 2 for the cheap info
 * requests, 20 for most, 60 for userRole, plus one per 20 items a time-range answer returns
 * (one per 60 for candleSnapshot).
 */
const CHEAP = new Set(['l2Book', 'allMids', 'clearinghouseState', 'orderStatus', 'spotClearinghouseState', 'exchangeStatus']);

/** Weight of an info request before its answer is known. */
export function infoWeight(type: string): number {
  if (CHEAP.has(type)) return 2;
  if (type === 'userRole') return 60;
  return 20;
}

/** The extra weight of a time-range answer of `items` items. */
export function itemsWeight(type: string, items: number): number {
  if (type === 'candleSnapshot') return Math.floor(items / 60);
  if (type === 'fundingHistory' || type === 'userFills' || type === 'userFillsByTime' || type === 'userFunding' || type === 'historicalOrders')
    return Math.floor(items / 20);
  return 0;
}

/** What the contexts poll (`metaAndAssetCtxs` every `pollMs`) spends a minute: kept free for it from the history backfill. */
export function pollWeightPerMinute(settings: { pollMs: number }): number {
  return infoWeight('metaAndAssetCtxs') * Math.ceil(60_000 / settings.pollMs);
}
