/**
 * Part `venues`: the gateway on Hyperliquid's catalogue (the wire fake listing about 200 perps,
 * its streams played as the venue's pace: mids every second, every book every two seconds) as a
 * user runs it with HYPERLIQUID_NETWORK set. Start to the first public 200, public read
 * throughput against the wire baseline beside the simulators' at the same catalogue size, the
 * upstream weight per sliding minute against the budget, and memory per market.
 *
 * The fake runs in this process (it is the venue, not the gateway): the gateway is a separate
 * process configured only by its variables, as in every part.
 */
import { ReplayPlayer } from '../src/venues/hyperliquid/replay/player.js';
import { startHyperliquidReplay, type HyperliquidReplay } from '../src/venues/hyperliquid/replay/start.js';
import { GatewayProcess } from './lib/gateway.js';
import { log, type Row } from './lib/report.js';
import type { Settings } from './lib/settings.js';
import { fmt, median, sleep } from './lib/stats.js';
import { measureSize, PUBLIC_TARGETS, type PublicResult } from './public-reads.js';

/** The venue's catalogue size (Hyperliquid lists about 200 perpetuals). */
const PERPS = 200;
/** The gateway's default weight budget: half the venue's 1,200 a minute. */
const BUDGET = 600;
const STARTS = 3;
const START_GOAL_MS = 3_000;
/** Markets streamed before memory is read: the smaller catalogue for the per-market slope. */
const FEW_COINS = 40;
const SETTLE_MS = 20_000;
const LABELS = ['markets', 'markets/BTC', 'history 1h×24', 'markets/BTC/orderbook', 'status'];
const TARGETS = PUBLIC_TARGETS.filter((t) => LABELS.includes(t.label));

export interface VenueBench {
  perps: number;
  /** Milliseconds from spawn to the first 200 of /api/v1/public/markets/BTC (a Hyperliquid market), per start. */
  startsMs: number[];
  hyperliquid: PublicResult[];
  simulators: PublicResult[];
  budget: number;
  /** The most weight one gateway's venue saw in any sliding minute. */
  peakWeight: number;
  memory: {
    fewMarkets: number;
    fewRssBytes: number;
    fewHeapBytes: number;
    allMarkets: number;
    allRssBytes: number;
    allHeapBytes: number;
    /** Live heap per market (the slope between the two catalogues). */
    bytesPerMarket: number;
  };
}

/** The most weight in any sliding minute of the fake's request log. */
function peakWeight(fake: HyperliquidReplay): number {
  const requests = fake.controls.requests();
  let peak = 0;
  let from = 0;
  let inWindow = 0;
  for (const r of requests) {
    inWindow += r.weight;
    while (requests[from]!.at <= r.at - 60_000) inWindow -= requests[from++]!.weight;
    peak = Math.max(peak, inWindow);
  }
  return peak;
}

export async function venueReads(settings: Settings, command: string[]): Promise<VenueBench> {
  let peak = 0;
  /**
   * One gateway's run against a venue of its own (a fresh fake, its streams playing), so the
   * venue's weight log is that gateway's alone: the runs follow each other within the minute,
   * each in a data directory of its own, as separate installations would.
   */
  const onVenue = async <T>(extra: Record<string, string>, run: (fake: HyperliquidReplay, env: Record<string, string>) => Promise<T>): Promise<T> => {
    const fake = await startHyperliquidReplay({ perpCount: PERPS });
    const player = new ReplayPlayer(fake.controls, 1);
    player.start();
    try {
      return await run(fake, {
        HYPERLIQUID_NETWORK: 'mainnet',
        HYPERLIQUID_API_URL: fake.httpUrl,
        HYPERLIQUID_WS_URL: fake.wsUrl,
        HYPERLIQUID_WEIGHT_PER_MINUTE: String(BUDGET),
        ...extra,
      });
    } finally {
      peak = Math.max(peak, peakWeight(fake));
      player.stop();
      await fake.close();
    }
  };

  const startsMs: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    await onVenue({}, async (_fake, env) => {
      const g = await GatewayProcess.start({ command, env, readyPath: '/api/v1/public/markets/BTC', pollMs: 20 });
      startsMs.push(g.startedMs);
      log(`venues: start ${i + 1}/${STARTS}: first 200 of markets/BTC ${g.startedMs} ms after the spawn (${g.markets} markets)`);
      await g.stop();
    });
  }

  const few = await onVenue({}, async (fake, env) => {
    const g = await GatewayProcess.start({ command, env: { ...env, HYPERLIQUID_COINS: fake.controls.assetNames().slice(0, FEW_COINS).join(',') } });
    try {
      await sleep(SETTLE_MS);
      return { markets: g.markets, rss: g.rss(), heap: await g.liveHeapBytes() };
    } finally {
      await g.stop();
    }
  });

  const all = await onVenue({}, async (_fake, env) => {
    const g = await GatewayProcess.start({ command, env });
    try {
      await sleep(SETTLE_MS);
      const rss = g.rss();
      const heap = await g.liveHeapBytes();
      log(`venues: live heap ${fmt(few.heap / 2 ** 20)} MB with ${few.markets} markets, ${fmt(heap / 2 ** 20)} MB with ${g.markets}`);
      return { markets: g.markets, rss, heap, results: await measureSize(settings, g, g.markets, TARGETS) };
    } finally {
      await g.stop();
    }
  });

  // The simulators at the same catalogue size, in the same run.
  const sim = await GatewayProcess.start({ command, markets: all.markets });
  let simulators: PublicResult[];
  try {
    simulators = await measureSize(settings, sim, all.markets, TARGETS);
  } finally {
    await sim.stop();
  }
  return {
    perps: PERPS,
    startsMs,
    hyperliquid: all.results,
    simulators,
    budget: BUDGET,
    peakWeight: peak,
    memory: {
      fewMarkets: few.markets,
      fewRssBytes: few.rss,
      allMarkets: all.markets,
      allRssBytes: all.rss,
      fewHeapBytes: few.heap,
      allHeapBytes: all.heap,
      bytesPerMarket: (all.heap - few.heap) / Math.max(1, all.markets - few.markets),
    },
  };
}

export function venueRows(v: VenueBench): Row[] {
  const start = median(v.startsMs);
  const rows: Row[] = [
    {
      area: 'venues hyperliquid',
      what: `start to first public 200 (markets/BTC), ${v.perps} perps listed, ${v.startsMs.length} starts`,
      figure: `median ${fmt(start)} ms (${v.startsMs.join(', ')})`,
      goal: `≤ ${START_GOAL_MS} ms`,
      pass: start <= START_GOAL_MS,
    },
    {
      area: 'venues hyperliquid',
      what: 'upstream weight in any sliding minute',
      figure: `peak ${v.peakWeight} of ${v.budget}`,
      goal: '≤ budget',
      pass: v.peakWeight <= v.budget,
    },
    {
      area: 'venues hyperliquid',
      what: `memory per market (live heap, ${v.memory.fewMarkets} → ${v.memory.allMarkets} markets, streaming)`,
      figure:
        `${fmt(v.memory.bytesPerMarket / 1024)} KB per market (heap ${fmt(v.memory.fewHeapBytes / 2 ** 20)} → ${fmt(v.memory.allHeapBytes / 2 ** 20)} MB;` +
        ` RSS ${fmt(v.memory.fewRssBytes / 2 ** 20)} → ${fmt(v.memory.allRssBytes / 2 ** 20)} MB)`,
    },
  ];
  for (const r of v.hyperliquid) {
    const s = v.simulators.find((x) => x.label === r.label);
    if (!s) continue;
    rows.push({
      area: `venues ${r.markets} mkts`,
      what: `GET ${r.label}: hyperliquid / simulators, each against its wire baseline`,
      figure: `${fmt(r.ratio, 2)}× / ${fmt(s.ratio, 2)}× (${fmt(r.gateway.reqPerSec)} / ${fmt(s.gateway.reqPerSec)} req/s; ${fmt(r.gateway.cpuUsPerReq)} / ${fmt(s.gateway.cpuUsPerReq)} µs CPU)`,
      goal: 'ratio ≥ 0.95 × the simulators’',
      pass: r.ratio >= 0.95 * s.ratio && r.gateway.failures === 0,
    });
  }
  return rows;
}
