import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { Clock } from '../domain/clock.js';
import type { GatewayEvents } from '../events/gateway-events.js';
import { backfillMissingHistory } from '../ingest/history-backfill.js';
import { IngestLoop } from '../ingest/ingest-loop.js';
import { HistoryReader } from '../market-data/history-reader.js';
import { MarketDirectory } from '../market-data/market-directory.js';
import { MarketReader } from '../market-data/market-reader.js';
import { checkFaultSources } from '../sources/source-faults.js';
import { createSimulatedSources } from '../sources/simulated-sources.js';
import type { SimulatedSource } from '../sources/simulated-source.js';
import type { GatewayStores } from '../stores/gateway-stores.js';

/** The public data plane: venues (sources), ingest, and the readers resolvers answer from. */
export interface MarketDataPlane {
  sources: SimulatedSource[];
  directory: MarketDirectory;
  reader: MarketReader;
  history: HistoryReader;
  ingest: IngestLoop;
  /** What the ingest leader does first: backfill history and take a first reading of every venue. */
  lead(): Promise<void>;
}

/** The venues the configuration names, before the stores open (their catalogue decides the directory). */
export function marketSources(config: GatewayConfig): { sources: SimulatedSource[]; directory: MarketDirectory } {
  const sources = createSimulatedSources(config.simulatedMarkets);
  checkFaultSources(config.simulatedFaults, sources);
  for (const s of sources) s.setFault(config.simulatedFaults[s.id] ?? 'none');
  return { sources, directory: new MarketDirectory(sources.flatMap((s) => s.markets())) };
}

export function marketDataPlane(
  config: GatewayConfig,
  venues: { sources: SimulatedSource[]; directory: MarketDirectory },
  deps: { stores: GatewayStores; events: GatewayEvents; clock: Clock; logger: Logger },
): MarketDataPlane {
  const { stores, events, clock, logger } = deps;
  const { sources, directory } = venues;
  const { cache, candles, funding } = stores;
  const reader = new MarketReader(directory, cache, clock);
  const ingest = new IngestLoop({
    ...{ sources, cache, candles, funding, reader, events, clock, logger, lease: stores.lease },
    freshnessHeartbeatMs: config.freshnessHeartbeatMs,
  });
  return {
    sources,
    directory,
    reader,
    history: new HistoryReader(candles, funding),
    ingest,
    async lead() {
      const at = clock.now();
      await backfillMissingHistory(candles, funding, directory.markets, at);
      await ingest.pollAll();
      logger.info({ markets: directory.markets.length, ms: clock.now() - at }, 'history backfilled and first snapshots cached');
    },
  };
}
