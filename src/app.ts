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
import { attachGraphqlWs } from './http/graphql-ws.js';
import { currentScope, runInScope } from './http/request-scope.js';
import { useContractRoutes } from './http/use-contract-routes.js';
import { useSofaRoutes } from './http/use-sofa-routes.js';
import { backfillCandles } from './ingest/candle-backfill.js';
import { backfillFunding } from './ingest/funding-backfill.js';
import { IngestLoop } from './ingest/ingest-loop.js';
import { createLogger } from './logger.js';
import { MarketDirectory } from './market-data/market-directory.js';
import { MarketReader } from './market-data/market-reader.js';
import { DEFAULT_PROTOCOLS } from './protocols/default-protocols.js';
import { ProtocolRegistry } from './protocols/protocol-registry.js';
import { createSimulatedSources } from './venues/simulated-venues.js';
import { Authenticator, RequestAuth } from './auth/authenticator.js';
import { applyBootstrap, readBootstrap } from './auth/bootstrap-file.js';
import { ensureDemoKey } from './auth/key-issuer.js';
import { useRateLimits } from './http/use-rate-limits.js';
import { ExecutionControls } from './controls/execution-controls.js';
import { openStores } from './stores/open-stores.js';

export const GRAPHQL_ENDPOINT = '/graphql';

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
}

export interface GatewayApp {
  services: AppServices;
  yoga: ReturnType<typeof createYoga<Record<string, unknown>, GatewayContext>>;
  /**
   * Applies the bootstrap file (or provisions the demo key), backfills history, takes a first
   * reading of every venue, then starts ingest. Returns the demo key when one was just created.
   */
  start(options?: { ingest?: boolean }): Promise<{ demoKey?: string }>;
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
  const stores = openStores(config);
  const { cache, candles, funding, identities, rateLimiter, events } = stores;
  const reader = new MarketReader(directory, cache, clock);
  const ingest = new IngestLoop({ sources, cache, candles, funding, reader, events, clock, logger });
  const bootstrap = config.bootstrapPath ? readBootstrap(config.bootstrapPath) : undefined;
  const authenticator = new Authenticator(identities);
  const services: AppServices = {
    config,
    logger,
    clock,
    cache,
    candles,
    funding,
    reader,
    protocols: new ProtocolRegistry(DEFAULT_PROTOCOLS),
    events,
    contract: new ContractDocuments(),
    sources,
    ingest,
    identities,
    authenticator,
    rateLimiter,
    controls: new ExecutionControls(),
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
    context: (initial: { request?: Request; auth?: RequestAuth }): GatewayContext => ({
      services,
      http: currentScope(),
      // graphql-ws authenticates once at connection and passes its RequestAuth in.
      auth: initial.auth ?? new RequestAuth(authenticator, initial.request?.headers.get('authorization')),
    }),
    plugins: [
      useContractRoutes(ROUTES, GRAPHQL_ENDPOINT),
      useRateLimits({
        limiter: rateLimiter,
        publicPolicy: { name: 'public', points: config.rateLimits.publicPerMinute, windowSeconds: 60 },
        keyPolicy: { name: 'api-key', points: config.rateLimits.keyPerMinute, windowSeconds: 60 },
        trustProxy: config.trustProxy,
        logger,
      }),
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
      const nowIso = new Date(t0).toISOString();
      let demoKey: string | undefined;
      if (bootstrap) await applyBootstrap(identities, bootstrap, nowIso);
      else if (config.env !== 'production') demoKey = await ensureDemoKey(identities, nowIso);
      await backfillCandles(candles, directory.markets, t0);
      await backfillFunding(funding, directory.markets, t0);
      await ingest.pollAll();
      if (startOptions.ingest !== false) ingest.start();
      logger.info({ markets: directory.markets.length, ms: clock.now() - t0 }, 'history backfilled and first snapshots cached');
      return demoKey ? { demoKey } : {};
    },
    createServer() {
      const server = createServer((req, res) => {
        const requestId = requestIdOf(req.headers['x-request-id']);
        res.setHeader('x-request-id', requestId);
        runInScope({ requestId }, () => yoga(req, res));
      });
      const ws = attachGraphqlWs(server, yoga as never, authenticator);
      closers.push(() => ws.close());
      return server;
    },
    async stop() {
      ingest.stop();
      await Promise.all(closers.splice(0).map((c) => c()));
      await stores.close();
    },
  };
}

const CLIENT_REQUEST_ID = /^[\w.-]{8,64}$/;

/** A client's own request id is echoed when it is sane; otherwise the gateway makes one. */
function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : randomUUID();
}
