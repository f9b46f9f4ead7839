import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { Clock } from '../domain/clock.js';
import type { GatewayEvents } from '../events/gateway-events.js';
import { IngestLoop } from '../ingest/ingest-loop.js';
import { HistoryReader } from '../market-data/history-reader.js';
import { MarketDirectory } from '../market-data/market-directory.js';
import { MarketReader } from '../market-data/market-reader.js';
import type { MarketDataSource } from '../sources/market-data-source.js';
import type { UpstreamObserver } from '../sources/upstream-observer.js';
import { checkFaultSources } from '../sources/source-faults.js';
import type { GatewayStores } from '../stores/gateway-stores.js';
import type { ConfiguredVenue } from '../venues/venue-module.js';
import { selectVenues } from '../venues/venue-registry.js';

/** The public data plane: venues (sources), ingest, and the readers resolvers answer from. */
export interface MarketDataPlane {
  venues: readonly ConfiguredVenue[];
  sources: MarketDataSource[];
  directory: MarketDirectory;
  reader: MarketReader;
  history: HistoryReader;
  ingest: IngestLoop;
  /** What the ingest leader does first: backfill history and take a first reading of every venue. */
  lead(): Promise<void>;
  /** Lists what the leader last wrote of each venue's catalogue, now and whenever it writes again (a replica that does not poll). */
  followListings(): Promise<void>;
}

/** The venues the configuration chooses and their sources, before the stores open (their catalogues make the directory). */
export function marketVenues(config: GatewayConfig, deps: { clock: Clock; logger: Logger; upstream: UpstreamObserver }) {
  const venues = selectVenues(config.venueEnv, {
    simulatedMarkets: config.simulatedMarkets,
    simulatedFaults: config.simulatedFaults,
    replayed: config.replayedVenues,
  });
  checkFaultSources(
    config.simulatedFaults,
    venues.filter((v) => v.mode === 'simulated'),
  );
  const directory = new MarketDirectory([]);
  const sources = venues.map((v) => v.createSource({ ...deps, directory }));
  directory.list(sources.flatMap((s) => s.markets()));
  return { venues, sources, directory };
}

export function marketDataPlane(
  config: GatewayConfig,
  chosen: ReturnType<typeof marketVenues>,
  deps: { stores: GatewayStores; events: GatewayEvents; clock: Clock; logger: Logger; upstream: UpstreamObserver },
): MarketDataPlane {
  const { stores, events, clock, logger, upstream } = deps;
  const { venues, sources, directory } = chosen;
  const { cache, candles, funding } = stores;
  const reader = new MarketReader(directory, cache, clock);
  const ingest = new IngestLoop({
    ...{ sources, cache, candles, funding, reader, events, clock, logger, upstream, lease: stores.lease },
    freshnessHeartbeatMs: config.freshnessHeartbeatMs,
  });
  return {
    venues,
    sources,
    directory,
    reader,
    history: new HistoryReader(candles, funding, (marketId) => sources.some((s) => s.historyPending?.(marketId))),
    ingest,
    async followListings() {
      const follow = async (sourceId: string) => {
        const listing = await cache.getListing(sourceId);
        if (listing && directory.relist(sourceId, listing)) logger.info({ source: sourceId, markets: listing.length }, 'venue listing followed');
      };
      cache.onListingChanged((sourceId) => void follow(sourceId).catch((err) => logger.warn({ source: sourceId, err }, 'venue listing not read')));
      await Promise.all(sources.map((s) => follow(s.id)));
    },
    async lead() {
      const at = clock.now();
      await Promise.all(sources.map((s) => s.backfillHistory?.({ candles, funding, spending: stores.spending }, at)));
      await ingest.pollAll();
      logger.info({ markets: directory.markets.length, ms: clock.now() - at }, 'history backfilled and first snapshots cached');
    },
  };
}
