import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { applyBootstrap } from './auth/bootstrap-file.js';
import { ensureDemoKey } from './auth/key-issuer.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { createLogger } from './config/logger.js';
import { readStartFiles, type StartFiles } from './config/start-files.js';
import { ContractDocuments } from './contract/contract-documents.js';
import { executionPlane } from './composition/execution-plane.js';
import { httpPlane } from './composition/http-plane.js';
import { marketDataPlane, marketVenues } from './composition/market-data-plane.js';
import { UpstreamForwarder } from './composition/upstream-forwarder.js';
import { CursorCodec } from './domain/cursor.js';
import { systemClock, type Clock } from './domain/clock.js';
import { closableEvents } from './events/closable-events.js';
import type { ExecutionVenue } from './execution/venues/execution-venue.js';
import type { AppServices } from './http/context/app-services.js';
import type { GatewayYoga } from './http/graphql/yoga-server.js';
import type { GatewayMetrics } from './http/operations/gateway-metrics.js';
import { LifecycleState } from './http/operations/readiness.js';
import { answerVersion } from './http/rest/answer-version.js';
import type { GatewayStores } from './stores/gateway-stores.js';
import { openStores } from './stores/open-stores.js';
import { timedStores } from './stores/timed-stores.js';

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
  /** Tests: wrap the opened stores or the paper venues to inject faults (test/support/faults.ts). */
  faults?: { stores?: (stores: GatewayStores) => GatewayStores; venues?: (venues: Map<string, ExecutionVenue>) => Map<string, ExecutionVenue> };
  /** The bootstrap and controls files as `npm start` read them before loading the app; read here when absent. */
  startFiles?: StartFiles;
}

/** How often each replica's reconciler finishes executions left open (src/execution/execution-reconciler.ts). */
const RECONCILE_EVERY_MS = 5_000;

export interface GatewayApp {
  services: AppServices;
  /** The stores behind the services (for tests and operations; resolvers never see them). */
  stores: GatewayStores;
  yoga: GatewayYoga;
  /**
   * Applies the bootstrap file (or provisions the demo key), backfills history, takes a first
   * reading of every venue, then starts ingest. Returns the demo key when one was just created.
   * In Redis mode only the replica holding the ingestion lease backfills and ingests; with
   * `ingest: false` the caller drives ingest itself and no lease is taken.
   */
  start(options?: { ingest?: boolean }): Promise<{ demoKey?: string }>;
  /** A node:http server with graphql-ws attached; not yet listening. */
  createServer(): Server;
  /** Readiness: started once `start()` finished, draining from shutdown on. */
  lifecycle: LifecycleState;
  /** Shutdown: completes every subscription (SSE `complete`), then closes graphql-ws sockets with 1001. */
  endStreams(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Builds the whole gateway from its configuration, plane by plane, every dependency once and
 * passed in; nothing starts until `start()`.
 */
export function buildApp(config: GatewayConfig, options: AppOptions = {}): GatewayApp {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const upstream = new UpstreamForwarder();
  const venues = marketVenues(config, { clock, logger, upstream });
  // A real venue's history is kept on disk (embedded mode); a simulator makes its own again at each start.
  const real = new Set(venues.venues.filter((v) => v.mode !== 'simulated').map((v) => v.id));
  const opened = openStores(
    config,
    logger,
    () => clock.now(),
    (marketId) => real.has(venues.directory.resolve(marketId)?.sourceId ?? ''),
  );
  // Store calls are timed for /metrics (the metrics exist once the HTTP plane does).
  const timing: { metrics?: GatewayMetrics } = {};
  const stores = timedStores(options.faults?.stores?.(opened) ?? opened, (store, method, seconds, ok) => timing.metrics?.storeCall(store, method, seconds, ok));
  const events = closableEvents(stores.events);
  const market = marketDataPlane(config, venues, { stores, events, clock, logger, upstream });
  const { bootstrap, controls: controlsFile } = options.startFiles ?? readStartFiles(config);
  const plane = executionPlane(config, {
    ...{ stores, events, reader: market.reader, directory: market.directory, venues: market.venues, clock, logger, controlsFile },
    ...(options.faults?.venues ? { wrapVenues: options.faults.venues } : {}),
  });
  const services: AppServices = {
    config,
    logger,
    clock,
    reader: market.reader,
    history: market.history,
    protocols: plane.protocols,
    events,
    contract: new ContractDocuments(() => plane.protocols.all()),
    sources: market.sources,
    venues: market.venues.map((v) => ({
      id: v.id,
      kind: v.kind,
      mode: v.mode,
      upstream: String(v.description.upstream ?? v.id),
      network: v.description.network === undefined ? null : String(v.description.network),
      chainId: typeof v.description.chainId === 'number' ? v.description.chainId : null,
    })),
    ingest: market.ingest,
    authenticator: plane.authenticator,
    keys: plane.keys,
    controls: plane.controls,
    execution: plane.execution,
    operator: plane.operator,
    sharedControls: plane.sharedControls,
    sharedState: stores.sharedState,
    cursors: new CursorCodec(config.cursorSecret),
    answerVersion: answerVersion(market.reader, plane.protocols, stores.sharedState),
  };
  const lifecycle = new LifecycleState();
  const http = httpPlane(config, { services, stores, lifecycle, clock, logger });
  timing.metrics = http.metrics;
  upstream.target = http.metrics;

  const endStreams = async () => {
    events.endSubscriptions();
    // Let the completions reach the sockets before they close.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await http.closeSockets();
  };
  return {
    lifecycle,
    endStreams,
    services,
    stores,
    yoga: http.yoga,
    async start(startOptions = {}) {
      const nowIso = new Date(clock.now()).toISOString();
      let demoKey: string | undefined;
      await stores.connect();
      await market.followListings();
      await services.sharedControls.start();
      plane.execution.reconciler.start(RECONCILE_EVERY_MS);
      if (bootstrap) await applyBootstrap(stores.identities, bootstrap, nowIso);
      else if (config.env !== 'production') demoKey = await ensureDemoKey(stores.identities, nowIso);
      const orders = plane.execution.orders;
      if (startOptions.ingest === false) await market.lead();
      else
        await stores.lease.start({
          onAcquired: async () => (await market.lead(), market.ingest.start(), orders.start()),
          onLost: () => (market.ingest.stop(), orders.stop()),
        });
      lifecycle.started = true;
      return demoKey ? { demoKey } : {};
    },
    createServer: () => http.createServer(),
    async stop() {
      await endStreams();
      market.ingest.stop();
      plane.execution.orders.stop();
      for (const source of market.sources) source.close?.();
      plane.execution.reconciler.stop();
      services.sharedControls.stop();
      await stores.lease.stop();
      await http.closeSockets();
      await stores.close();
    },
  };
}
