import type { GatewayApp } from '../../src/app.js';
import { backfillCandles, type CandleMemo } from '../../src/ingest/candle-backfill.js';

// One per test worker: the closed candles of three years of simulated history are sampled once,
// not once per test gateway (a gateway's start then finds its history stored and skips the backfill).
const memo: CandleMemo = new Map();

/** Backfills a test gateway's candles from the worker's memo, before `app.start()`; embedded/memory stores only. */
export async function prefillHistory(app: GatewayApp, now: number): Promise<void> {
  if (app.services.config.mode === 'redis') return;
  await backfillCandles(app.stores.candles, app.services.reader.directory.markets, now, memo);
}
