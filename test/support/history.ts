import type { GatewayApp } from '../../src/app.js';
import { backfillCandles, type CandleMemo } from '../../src/venues/simulation/simulated-candles.js';
import type { MarketDefinition } from '../../src/domain/market.js';
import type { GatewayStores } from '../../src/stores/gateway-stores.js';

// One per test worker: the closed candles of three years of simulated history are sampled once,
// not once per test gateway (a gateway's start then finds its history stored and skips the backfill).
const memo: CandleMemo = new Map();

/** Backfills a test gateway's candles from the worker's memo, before `app.start()`; embedded/memory stores only. */
export async function prefillHistory(app: GatewayApp, now: number): Promise<void> {
  if (app.services.config.mode === 'redis') return;
  await backfillCandles(app.stores.candles, app.services.reader.directory.markets, now, memo);
}

/**
 * Redis stores talk to Redis only once connected: their candles are written from the worker's
 * memo right after `connect()` (inside `app.start()`, before its backfill looks for them), so a
 * Redis test gateway writes its history but does not sample three years of candles again.
 */
export function prefillOnConnect(stores: GatewayStores, markets: () => readonly MarketDefinition[], now: () => number): GatewayStores {
  return {
    ...stores,
    async connect() {
      await stores.connect();
      await backfillCandles(stores.candles, markets(), now(), memo);
    },
  };
}
