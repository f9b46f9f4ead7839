import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createYoga } from 'graphql-yoga';
import { getOperationAST } from 'graphql';
import type { Logger } from 'pino';
import { buildSchema } from '../schema/index.js';
import type { GatewayContext } from '../schema/context.js';
import type { AppServices } from './app-services.js';
import type { GatewayConfig } from './config.js';
import { ContractDocuments } from './contract/contract-documents.js';
import { ROUTES } from './contract/route-registry.js';
import { systemClock, type Clock } from './domain/clock.js';
import { createGatewayEvents } from './events/gateway-events.js';
import { attachGraphqlWs } from './http/graphql-ws.js';
import { currentScope, runInScope } from './http/request-scope.js';
import { useContractRoutes } from './http/use-contract-routes.js';
import { useSofaRoutes } from './http/use-sofa-routes.js';
import { backfillCandles } from './ingest/candle-backfill.js';
import { IngestLoop } from './ingest/ingest-loop.js';
import { createLogger } from './logger.js';
import { MarketDirectory } from './market-data/market-directory.js';
import { MarketReader } from './market-data/market-reader.js';
import { DEFAULT_PROTOCOLS } from './protocols/default-protocols.js';
import { ProtocolRegistry } from './protocols/protocol-registry.js';
import { MemoryCandleStore } from './stores/memory/memory-candle-store.js';
import { MemorySnapshotCache } from './stores/memory/memory-snapshot-cache.js';
import { createSimulatedSources } from './venues/simulated-venues.js';

export const GRAPHQL_ENDPOINT = '/graphql';

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
}

export interface GatewayApp {
  services: AppServices;
  yoga: ReturnType<typeof createYoga<Record<string, unknown>, GatewayContext>>;
  /** Backfills history, takes a first reading of every venue, then starts ingest. */
  start(options?: { ingest?: boolean }): Promise<void>;
  /** A node:http server with graphql-ws attached; not yet listening. */
  createServer(): Server;
  stop(): Promise<void>;
}

/** Builds the whole gateway from its configuration; nothing starts until `start()`. */
export function buildApp(config: GatewayConfig, options: AppOptions = {}): GatewayApp {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const sources = createSimulatedSources();
  for (const s of sources) s.setFault(config.simulatedFaults[s.id] ?? 'none');
  const directory = new MarketDirectory(sources.flatMap((s) => s.markets()));
  const cache = new MemorySnapshotCache();
  const candles = new MemoryCandleStore();
  const reader = new MarketReader(directory, cache, clock);
  const events = createGatewayEvents();
  const ingest = new IngestLoop({ sources, cache, candles, reader, events, clock, logger });
  const services: AppServices = {
    config,
    logger,
    clock,
    cache,
    candles,
    reader,
    protocols: new ProtocolRegistry(DEFAULT_PROTOCOLS),
    events,
    contract: new ContractDocuments(),
    sources,
    ingest,
  };

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema: buildSchema(),
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    landingPage: false,
    graphiql: config.env === 'development',
    // Never put stacks into `extensions`, in any environment.
    maskedErrors: { isDev: false },
    logging: {
      debug: (...args) => logger.debug({ args }, 'yoga'),
      info: (...args) => logger.info({ args }, 'yoga'),
      warn: (...args) => logger.warn({ args }, 'yoga'),
      error: (...args) => logger.error({ args }, 'yoga'),
    },
    context: (): GatewayContext => ({ services, http: currentScope() }),
    plugins: [
      useContractRoutes(ROUTES, GRAPHQL_ENDPOINT),
      // jit's compiled subscribe drops field arguments: compile queries and mutations only.
      useGraphQlJit({}, { enableIf: (args) => getOperationAST(args.document, args.operationName)?.operation !== 'subscription' }),
      useSofaRoutes({ contract: services.contract, logger }),
    ],
  });

  const closers: (() => Promise<void>)[] = [];
  return {
    services,
    yoga,
    async start(startOptions = {}) {
      const t0 = clock.now();
      await backfillCandles(candles, directory.markets, t0);
      await ingest.pollAll();
      if (startOptions.ingest !== false) ingest.start();
      logger.info({ markets: directory.markets.length, ms: clock.now() - t0 }, 'history backfilled and first snapshots cached');
    },
    createServer() {
      const server = createServer((req, res) => {
        const requestId = requestIdOf(req.headers['x-request-id']);
        res.setHeader('x-request-id', requestId);
        runInScope({ requestId }, () => yoga(req, res));
      });
      const ws = attachGraphqlWs(server, yoga as never);
      closers.push(() => ws.close());
      return server;
    },
    async stop() {
      ingest.stop();
      await Promise.all(closers.splice(0).map((c) => c()));
    },
  };
}

const CLIENT_REQUEST_ID = /^[\w.-]{8,64}$/;

/** A client's own request id is echoed when it is sane; otherwise the gateway makes one. */
function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : randomUUID();
}
