import { HttpTransport, InfoClient } from '@nktkas/hyperliquid';
import { writeRecording, type Recording } from '../../../replay/recording.js';

export interface HyperliquidRecordOptions {
  /** The info API's base URL (https://api.hyperliquid.xyz, its testnet, or a local fake). */
  apiUrl: string;
  network: 'mainnet' | 'testnet';
  /** The coins whose books, candles and funding are recorded. */
  coins: readonly string[];
  /** Where the recordings go (one JSON file each, the fixtures' format). */
  outDir: string;
  /** Request weight per sliding minute the recorder may spend (the venue allows 1,200 per IP). */
  weightPerMinute: number;
  /** Replace recordings already in `outDir`. */
  overwrite: boolean;
  timeoutMs?: number;
  /** Told of each recording written. */
  progress?: (line: string) => void;
  now?: () => number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Each recorded interval and how far back it is asked for (the gateway's stored tiers, within the venue's 5,000 candles). */
const CANDLE_WINDOWS = [
  { interval: '1m', spanMs: 2 * DAY },
  { interval: '1h', spanMs: 90 * DAY },
  { interval: '1d', spanMs: 366 * DAY },
] as const;
const FUNDING_SPAN_MS = 30 * DAY;

/** Hyperliquid's weight of an info request (docs, "Rate limits"): 2 for books and mids, 20 for the rest, plus the items of a range. */
function weightOf(type: string, items = 0): number {
  const base = type === 'l2Book' || type === 'allMids' ? 2 : 20;
  return base + (type === 'candleSnapshot' ? Math.floor(items / 60) : type === 'fundingHistory' ? Math.floor(items / 20) : 0);
}

/**
 * `npm run record -- hyperliquid`: asks the venue's info API, through the SDK, for what the replay
 * fake serves (meta, contexts, mids, spot contexts, and per coin its book, 1m/1h/1d candles and
 * funding) and writes each answer as a recording `{source, request, status, response}` like the
 * shared fixtures, the source saying where and when it was recorded. Paced within
 * `weightPerMinute`; returns the files written.
 */
export async function recordHyperliquid(options: HyperliquidRecordOptions): Promise<string[]> {
  const now = options.now ?? Date.now;
  const spent: { at: number; weight: number }[] = [];
  const pace = async (weight: number) => {
    for (;;) {
      const t = now();
      while (spent.length > 0 && spent[0]!.at <= t - MINUTE) spent.shift();
      const used = spent.reduce((sum, s) => sum + s.weight, 0);
      if (used + weight <= options.weightPerMinute || spent.length === 0) {
        spent.push({ at: t, weight });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, spent[0]!.at + MINUTE - t + 5));
    }
  };
  const transport = new HttpTransport({ isTestnet: options.network === 'testnet', apiUrl: options.apiUrl, timeout: options.timeoutMs ?? 15_000 });
  const captured: { request: unknown; response: unknown }[] = [];
  const info = new InfoClient({
    transport: {
      isTestnet: transport.isTestnet,
      request: async <T>(endpoint: 'info' | 'exchange' | 'explorer', payload: unknown, signal?: AbortSignal) => {
        const response = await transport.request<T>(endpoint, payload, signal);
        captured.push({ request: payload, response });
        return response;
      },
    },
  });
  const written: string[] = [];
  const record = async (file: string, weight: number, ask: () => Promise<unknown>, describe: (answer: unknown) => string) => {
    await pace(weight);
    captured.length = 0;
    const answer = await ask();
    const exchange = captured.at(-1);
    if (!exchange) throw new Error(`no request was sent for ${file}`);
    const recording: Recording = {
      source: {
        capture: 'recorder capture (npm run record -- hyperliquid), through @nktkas/hyperliquid',
        method: 'POST',
        url: new URL('/info', options.apiUrl).href,
        network: options.network,
        recordedAt: new Date(now()).toUTCString(),
        license: "Hyperliquid's public market data",
      },
      request: exchange.request,
      status: 200,
      response: exchange.response,
    };
    written.push(await writeRecording(options.outDir, file, recording, { overwrite: options.overwrite }));
    options.progress?.(`recorded ${file}: ${describe(answer)}`);
  };

  await record(
    'meta.json',
    weightOf('meta'),
    () => info.meta(),
    (a) => `${(a as { universe: unknown[] }).universe.length} perpetuals`,
  );
  await record(
    'metaAndAssetCtxs.json',
    weightOf('metaAndAssetCtxs'),
    () => info.metaAndAssetCtxs(),
    (a) => `${(a as [unknown, unknown[]])[1].length} contexts`,
  );
  await record(
    'allMids.json',
    weightOf('allMids'),
    () => info.allMids(),
    (a) => `${Object.keys(a as object).length} mids`,
  );
  await record(
    'spotMetaAndAssetCtxs.json',
    weightOf('spotMetaAndAssetCtxs'),
    () => info.spotMetaAndAssetCtxs(),
    () => 'spot pairs and contexts',
  );
  for (const coin of options.coins) {
    await record(
      `l2Book-${coin}.json`,
      weightOf('l2Book'),
      () => info.l2Book({ coin }),
      (a) => {
        const book = a as { levels: [unknown[], unknown[]] } | null;
        return book ? `${book.levels[0].length} bids, ${book.levels[1].length} asks` : 'no book (unknown coin)';
      },
    );
    const end = now();
    for (const { interval, spanMs } of CANDLE_WINDOWS) {
      const items = Math.min(5_000, Math.ceil(spanMs / ({ '1m': MINUTE, '1h': HOUR, '1d': DAY } as const)[interval]));
      await record(
        `candleSnapshot-${coin}-${interval}.json`,
        weightOf('candleSnapshot', items),
        () => info.candleSnapshot({ coin, interval, startTime: end - spanMs, endTime: end }),
        (a) => `${(a as unknown[]).length} candles`,
      );
    }
    await record(
      `fundingHistory-${coin}.json`,
      weightOf('fundingHistory', 500),
      () => info.fundingHistory({ coin, startTime: end - FUNDING_SPAN_MS, endTime: end }),
      (a) => `${(a as unknown[]).length} settlements`,
    );
  }
  return written;
}
