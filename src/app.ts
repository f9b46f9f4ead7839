import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createYoga } from 'graphql-yoga';
import { getOperationAST } from 'graphql';
import type { Logger } from 'pino';
import { buildSchema } from '../schema/index.js';
import type { GatewayContext } from './http/gateway-context.js';
import type { AppServices } from './http/app-services.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { ContractDocuments } from './contract/contract-documents.js';
import { ROUTES } from './contract/route-registry.js';
import { systemClock, type Clock } from './domain/clock.js';
import { attachGraphqlWs } from './http/graphql-ws.js';
import { currentScope, runInScope } from './http/request-scope.js';
import { useContractRoutes } from './http/use-contract-routes.js';
import { useSofaRoutes } from './http/use-sofa-routes.js';
import { backfillMissingHistory } from './ingest/history-backfill.js';
import { IngestLoop } from './ingest/ingest-loop.js';
import { createLogger } from './config/logger.js';
import { MarketDirectory } from './market-data/market-directory.js';
import { MarketReader } from './market-data/market-reader.js';
import { DEFAULT_PROTOCOLS } from './protocols/default-protocols.js';
import { ProtocolRegistry } from './protocols/protocol-registry.js';
import { createSimulatedSources } from './sources/simulated-sources.js';
import { Authenticator, type RequestAuth } from './auth/authenticator.js';
import { applyBootstrap, readBootstrap } from './auth/bootstrap-file.js';
import { ensureDemoKey } from './auth/key-issuer.js';
import { useRateLimits, type RateLimitOptions } from './http/use-rate-limits.js';
import { PublicFastPath, type ErrorMasking } from './http/public-fast-path.js';
import { requestContext } from './http/request-context.js';
import { ExecutionControls } from './controls/execution-controls.js';
import { WalletSessions } from './auth/wallet-sessions.js';
import { OperatorAccess } from './controls/operator-access.js';
import { applyControlsFile } from './controls/controls-file.js';
import { SharedControls } from './controls/shared-controls.js';
import { AuditTrail } from './execution/audit-trail.js';
import { createExecutionServices } from './execution/execution-services.js';
import { CursorCodec } from './domain/cursor.js';
import { MCP_PATH, McpEndpoint } from './http/mcp-endpoint.js';
import { errorResponse } from './errors/error-response.js';
import { createPaperVenues } from './execution/venues/paper-venues.js';
import { openStores } from './stores/open-stores.js';
import type { GatewayStores } from './stores/gateway-stores.js';
import { Ledger } from './execution/ledger.js';
import { HistoryReader } from './market-data/history-reader.js';
import { ApiKeys } from './auth/api-keys.js';

export const GRAPHQL_ENDPOINT = '/graphql';

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
}

export interface GatewayApp {
  services: AppServices;
  /** The stores behind the services (for tests and operations; resolvers never see them). */
  stores: GatewayStores;
  yoga: ReturnType<typeof createYoga<Record<string, unknown>, GatewayContext>>;
  /**
   * Applies the bootstrap file (or provisions the demo key), backfills history, takes a first
   * reading of every venue, then starts ingest. Returns the demo key when one was just created.
   * In Redis mode only the replica holding the ingestion lease backfills and ingests; with
   * `ingest: false` the caller drives ingest itself and no lease is taken.
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
  const sources = createSimulatedSources(config.simulatedMarkets);
  for (const s of sources) s.setFault(config.simulatedFaults[s.id] ?? 'none');
  const directory = new MarketDirectory(sources.flatMap((s) => s.markets()));
  const stores = openStores(config, logger, () => clock.now());
  const { cache, candles, funding, identities, rateLimiter, events } = stores;
  const reader = new MarketReader(directory, cache, clock);
  const ingest = new IngestLoop({ sources, cache, candles, funding, reader, events, clock, logger });
  const bootstrap = config.bootstrapPath ? readBootstrap(config.bootstrapPath) : undefined;
  const protocols = new ProtocolRegistry(DEFAULT_PROTOCOLS);
  const controls = new ExecutionControls();
  if (config.controlsPath) applyControlsFile(config.controlsPath, controls, protocols, new Date(clock.now()).toISOString());
  const wallets = new WalletSessions(stores.execution.walletSessions, identities, clock, { domain: config.siweDomain });
  const authenticator = new Authenticator(identities, (token) => wallets.sessionFor(token));
  const execution = createExecutionServices(
    {
      clock,
      logger,
      protocols,
      controls,
      reader,
      cache,
      venues: createPaperVenues(directory),
      identities,
      ...stores.execution,
      ledger: new Ledger(stores.execution.ledger),
      audit: new AuditTrail(stores.execution.audit, clock, logger),
      events,
    },
    wallets,
  );
  const services: AppServices = {
    config,
    logger,
    clock,
    reader,
    history: new HistoryReader(candles, funding),
    protocols,
    events,
    contract: new ContractDocuments(),
    sources,
    ingest,
    authenticator,
    keys: new ApiKeys(identities, clock),
    controls,
    execution,
    operator: new OperatorAccess(config.operatorToken),
    sharedControls: new SharedControls(controls, protocols, stores.controlsChannel, logger),
    sharedState: stores.sharedState,
    cursors: new CursorCodec(config.cursorSecret),
  };

  // Shared by Yoga's plugins and the public fast path (createServer), so both decide alike.
  const rateLimits: RateLimitOptions = {
    limiter: rateLimiter,
    publicPolicy: { name: 'public', points: config.rateLimits.publicPerMinute, windowSeconds: 60 },
    keyPolicy: { name: 'api-key', points: config.rateLimits.keyPerMinute, windowSeconds: 60 },
    trustProxy: config.trustProxy,
    logger,
  };
  const sofaRoutes = useSofaRoutes({ contract: services.contract, logger });

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema: buildSchema(),
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    landingPage: false,
    // Yoga's built-in health check answers any URL *ending* in its endpoint with an empty 200; a
    // parsed URL never contains a literal space, so this keeps it unreachable (only contract routes exist).
    healthCheckEndpoint: ' ',
    graphiql: config.env === 'development',
    // Never put stacks into `extensions`, in any environment.
    maskedErrors: { isDev: false },
    logging: {
      debug: (...args) => logger.debug({ args }, 'yoga'),
      info: (...args) => logger.info({ args }, 'yoga'),
      warn: (...args) => logger.warn({ args }, 'yoga'),
      error: (...args) => logger.error({ args }, 'yoga'),
    },
    // graphql-ws authenticates once at connection and passes its RequestAuth in.
    context: (initial: { request?: Request; auth?: RequestAuth }): GatewayContext =>
      requestContext(services, currentScope(), initial.auth ?? initial.request?.headers.get('authorization')),
    plugins: [
      useContractRoutes(ROUTES, GRAPHQL_ENDPOINT),
      useRateLimits(rateLimits),
      // jit's compiled subscribe drops field arguments: compile queries and mutations only.
      useGraphQlJit({}, { enableIf: (args) => getOperationAST(args.document, args.operationName)?.operation !== 'subscription' }),
      sofaRoutes,
    ],
  });

  const closers: (() => Promise<void>)[] = [];
  return {
    services,
    stores,
    yoga,
    async start(startOptions = {}) {
      const t0 = clock.now();
      const nowIso = new Date(t0).toISOString();
      let demoKey: string | undefined;
      await stores.connect();
      await services.sharedControls.start();
      if (bootstrap) await applyBootstrap(identities, bootstrap, nowIso);
      else if (config.env !== 'production') demoKey = await ensureDemoKey(identities, nowIso);
      const lead = async () => {
        const at = clock.now();
        await backfillMissingHistory(candles, funding, directory.markets, at);
        await ingest.pollAll();
        logger.info({ markets: directory.markets.length, ms: clock.now() - at }, 'history backfilled and first snapshots cached');
      };
      if (startOptions.ingest === false) await lead();
      else await stores.lease.start({ onAcquired: async () => (await lead(), ingest.start()), onLost: () => ingest.stop() });
      return demoKey ? { demoKey } : {};
    },
    createServer() {
      const sofa = sofaRoutes.currentSofa();
      const fastPath =
        config.publicFastPath && sofa ? new PublicFastPath({ services, routes: ROUTES, sofa, rateLimits, masking: yogaMasking(yoga), logger }) : undefined;
      const mcp = new McpEndpoint((url, init) => yoga.fetch(url, init));
      const server = createServer((req, res) => {
        const requestId = requestIdOf(req.headers['x-request-id']);
        // The spec's other name for the public contract document.
        if (req.url === '/openapi.public.json' || req.url?.startsWith('/openapi.public.json?')) req.url = `/api/v1/public${req.url}`;
        // Model Context Protocol tools for agents (internal to the REST contract: in neither document).
        if (req.url === MCP_PATH || req.url?.startsWith(`${MCP_PATH}?`)) {
          res.setHeader('x-request-id', requestId);
          return void mcp.handle(req, res, requestId).catch((err: unknown) => {
            logger.error({ err }, 'mcp request failed');
            if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
            res.end(JSON.stringify(errorResponse(500, 'internal_error', 'The MCP request failed.', requestId)));
          });
        }
        // Public GET routes skip the fetch-API and router layers; everything else goes through Yoga and Sofa.
        if (fastPath?.handle(req, res, requestId)) return;
        res.setHeader('x-request-id', requestId);
        runInScope({ requestId }, () => yoga(req, res));
      });
      const ws = attachGraphqlWs(server, yoga as never, authenticator);
      closers.push(() => ws.close());
      return server;
    },
    async stop() {
      ingest.stop();
      services.sharedControls.stop();
      await stores.lease.stop();
      await Promise.all(closers.splice(0).map((c) => c()));
      await stores.close();
    },
  };
}

/** Yoga's own error masking (`maskedErrors` above), for the fast path to mask execution errors alike. */
function yogaMasking(yoga: object): ErrorMasking | null {
  const opts = (yoga as { maskedErrorsOpts?: ErrorMasking | null }).maskedErrorsOpts;
  if (opts === undefined) throw new Error('graphql-yoga no longer exposes maskedErrorsOpts: the public fast path cannot mask errors as Yoga does');
  return opts;
}

const CLIENT_REQUEST_ID = /^[\w.-]{8,64}$/;

/** A client's own request id is echoed when it is sane; otherwise the gateway makes one. */
function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : randomUUID();
}
