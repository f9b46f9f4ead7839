import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findRecordings, loadRecordings, type LoadedRecording } from '../../../replay/recording.js';
import { isCandleInterval, type BookLevel, type Candle, type FundingItem, type MarginTable, type PerpAssetCtx } from './wire.js';

/**
 * Which request parameters decide the answer, per POST /info type: a recording answers a request
 * when they agree on these fields (see `findRecordings`). Time ranges are not listed for candles
 * and funding: their recordings are merged into one series per coin and cut to the asked range.
 */
export const INFO_MATCH_FIELDS: Record<string, readonly string[]> = {
  meta: ['type', 'dex'],
  metaAndAssetCtxs: ['type', 'dex'],
  allMids: ['type', 'dex'],
  spotMetaAndAssetCtxs: ['type'],
  l2Book: ['type', 'coin', 'nSigFigs', 'mantissa'],
  candleSnapshot: ['type', 'req.coin', 'req.interval'],
  fundingHistory: ['type', 'coin'],
  predictedFundings: ['type'],
};

/** What the recordings hold, ready for the fake; every part says which file it came from. */
export interface RecordedData {
  files: string[];
  /** `meta` universe (name, szDecimals, maxLeverage) in the recorded order. */
  universe: { name: string; szDecimals: number; maxLeverage: number }[];
  /** Recorded mids by coin (perps and, from the spot recording, spot pairs). */
  perpMids: Map<string, string>;
  spotMids: Map<string, string>;
  /** The recorded `spotMetaAndAssetCtxs` body, served as it is. */
  spotMetaAndAssetCtxs: unknown;
  /** Recorded books by coin (full precision). */
  books: Map<string, { levels: [BookLevel[], BookLevel[]]; time: number }>;
  /** Recorded candles by `coin|interval`, ascending by open time. */
  candles: Map<string, Candle[]>;
  /** Recorded funding by coin: every recording merged, ascending, one item per time. */
  funding: Map<string, FundingItem[]>;
  /** Margin tables from the metaAndAssetCtxs recording (ids 50, 51). */
  marginTables: [number, MarginTable][];
  /** The recorded contexts by coin (metaAndAssetCtxs mock), used as shape templates. */
  ctxTemplates: Map<string, PerpAssetCtx>;
  /** When the main (2023-07-17) session was recorded: the anchor of the synthesized price paths. */
  anchorTime: number;
}

/** The fixture directory: `test/fixtures/hyperliquid` of this checkout (from src/ or from dist/src/). */
export function defaultRecordingsDir(): string {
  for (const up of ['../../../../', '../../../../../']) {
    const dir = fileURLToPath(new URL(`${up}test/fixtures/hyperliquid/`, import.meta.url));
    if (existsSync(dir)) return dir;
  }
  throw new Error('test/fixtures/hyperliquid not found: pass recordingsDir');
}

function only(recordings: readonly LoadedRecording[], request: Record<string, unknown>): LoadedRecording[] {
  const type = String(request.type);
  return findRecordings(recordings, request, INFO_MATCH_FIELDS[type] ?? ['type']).filter((r) => r.status === 200);
}

function recordedTime(recording: LoadedRecording): number {
  const at = recording.source.recordedAt;
  const time = typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isFinite(time) ? time : 0;
}

/** Reads `dir` and sorts the Hyperliquid recordings by what they answer. */
export async function loadRecordedData(dir: string): Promise<RecordedData> {
  const recordings = (await loadRecordings(dir)).filter((r) => typeof r.request === 'object' && r.request !== null);
  // The newest capture of each request wins; the older ones (`-2023MMDD`) only fill what it lacks.
  recordings.sort((a, b) => recordedTime(b) - recordedTime(a));

  const data: RecordedData = {
    files: recordings.map((r) => r.file).sort(),
    universe: [],
    perpMids: new Map(),
    spotMids: new Map(),
    spotMetaAndAssetCtxs: undefined,
    books: new Map(),
    candles: new Map(),
    funding: new Map(),
    marginTables: [],
    ctxTemplates: new Map(),
    anchorTime: 0,
  };

  const meta = only(recordings, { type: 'meta' })[0];
  if (meta) {
    const body = meta.response as { universe: { name: string; szDecimals: number; maxLeverage?: number }[] };
    data.universe = body.universe.map((u) => ({ name: u.name, szDecimals: u.szDecimals, maxLeverage: u.maxLeverage ?? 50 }));
  }

  const mids = only(recordings, { type: 'allMids' })[0];
  if (mids) {
    for (const [coin, px] of Object.entries(mids.response as Record<string, string>)) data.perpMids.set(coin, px);
    data.anchorTime = recordedTime(mids);
  }

  const metaAndCtxs = only(recordings, { type: 'metaAndAssetCtxs' })[0];
  if (metaAndCtxs) {
    const [m, ctxs] = metaAndCtxs.response as [{ universe: { name: string }[]; marginTables: [number, MarginTable][] }, PerpAssetCtx[]];
    data.marginTables = m.marginTables;
    m.universe.forEach((u, i) => {
      const ctx = ctxs[i];
      if (ctx) data.ctxTemplates.set(u.name, ctx);
    });
  }

  const spot = only(recordings, { type: 'spotMetaAndAssetCtxs' })[0];
  if (spot) {
    data.spotMetaAndAssetCtxs = spot.response;
    const [, ctxs] = spot.response as [unknown, { coin: string; midPx: string | null }[]];
    for (const ctx of ctxs) if (ctx.midPx !== null) data.spotMids.set(ctx.coin, ctx.midPx);
  }

  for (const recording of recordings) {
    const request = recording.request as Record<string, unknown>;
    if (recording.status !== 200) continue;
    if (request.type === 'l2Book' && typeof request.coin === 'string' && request.nSigFigs == null && !data.books.has(request.coin)) {
      const book = recording.response as { levels: [BookLevel[], BookLevel[]]; time: number };
      data.books.set(request.coin, { levels: book.levels, time: book.time });
    }
    if (request.type === 'candleSnapshot') {
      const req = request.req as { coin: string; interval: string };
      if (!isCandleInterval(req.interval)) continue;
      const key = `${req.coin}|${req.interval}`;
      const merged = new Map((data.candles.get(key) ?? []).map((c) => [c.t, c]));
      for (const candle of recording.response as Candle[]) if (!merged.has(candle.t)) merged.set(candle.t, candle);
      data.candles.set(
        key,
        [...merged.values()].sort((a, b) => a.t - b.t),
      );
    }
    if (request.type === 'fundingHistory' && typeof request.coin === 'string') {
      const merged = new Map((data.funding.get(request.coin) ?? []).map((f) => [f.time, f]));
      for (const item of recording.response as FundingItem[]) if (!merged.has(item.time)) merged.set(item.time, item);
      data.funding.set(
        request.coin,
        [...merged.values()].sort((a, b) => a.time - b.time),
      );
    }
  }
  return data;
}
