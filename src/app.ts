import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createYoga } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
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
import { useSharedEventResults } from './http/use-shared-event-results.js';
import { backfillMissingHistory } from './ingest/history-backfill.js';
import { IngestLoop } from './ingest/ingest-loop.js';
import { createLogger } from './config/logger.js';
import { MarketDirectory } from './market-data/market-directory.js';
import { MarketReader } from './market-data/market-reader.js';
import { DEFAULT_PROTOCOLS } from './protocols/default-protocols.js';
import { ProtocolRegistry } from './protocols/protocol-registry.js';
import { createSimulatedSources } from './sources/simulated-sources.js';
import { Authenticator, type RequestAuth } from './auth/authenticator.js';
import { applyBootstrap } from './auth/bootstrap-file.js';
import { readStartFiles, type StartFiles } from './config/start-files.js';
import { ensureDemoKey } from './auth/key-issuer.js';
import { useRateLimits, type RateLimitOptions } from './http/use-rate-limits.js';
import { useAuthFirst } from './http/use-auth-first.js';
import { useOperatorIntrospection } from './http/use-operator-introspection.js';
import { boundedGraphqlPlugins } from './http/bounded-graphql.js';
import { admitRequest, answerClientErrors } from './http/request-edge.js';
import { useJsonBodies } from './http/use-json-bodies.js';
import { useStrictBodies } from './http/use-strict-bodies.js';
import { useCleanErrors } from './http/use-clean-errors.js';
import { corsPolicy } from './http/cors-policy.js';
import { securityHeaders, setHeaders } from './http/security-headers.js';
import { DashboardAssets } from './http/dashboard-assets.js';
import { yogaLogging } from './http/yoga-logging.js';
import { PublicFastPath, type ErrorMasking } from './http/public-fast-path.js';
import { requestContext } from './http/request-context.js';
import { RenderedAnswers } from './http/rendered-answers.js';
import { answerVersion } from './http/answer-version.js';
import { AnswerEncoder } from './http/answer-encoding.js';
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
import type { ExecutionVenue } from './execution/venues/execution-venue.js';
import { openStores } from './stores/open-stores.js';
import { timedStores } from './stores/timed-stores.js';
import type { GatewayStores } from './stores/gateway-stores.js';
import { Ledger } from './execution/ledger.js';
import { HistoryReader } from './market-data/history-reader.js';
import { ApiKeys } from './auth/api-keys.js';
import { closableEvents } from './events/closable-events.js';
import { checkFaultSources } from './sources/source-faults.js';
import { ServerEdge } from './http/server-edge.js';
import { GatewayMetrics, useOperationMetrics } from './http/gateway-metrics.js';
import { useExecuteOutcomeMetrics } from './http/execute-outcome-metrics.js';
import { LifecycleState } from './http/readiness.js';

export const GRAPHQL_ENDPOINT = '/graphql';

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
  /** Readiness: started once `start()` finished, draining from shutdown on. */
  lifecycle: LifecycleState;
  /** Shutdown: completes every subscription (SSE `complete`), then closes graphql-ws sockets with 1001. */
  endStreams(): Promise<void>;
  stop(): Promise<void>;
}

/** Builds the whole gateway from its configuration; nothing starts until `start()`. */
export function buildApp(config: GatewayConfig, options: AppOptions = {}): GatewayApp {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const sources = createSimulatedSources(config.simulatedMarkets);
  checkFaultSources(config.simulatedFaults, sources);
  for (const s of sources) s.setFault(config.simulatedFaults[s.id] ?? 'none');
  const directory = new MarketDirectory(sources.flatMap((s) => s.markets()));
  const opened = openStores(config, logger, () => clock.now());
  // Store calls are timed for /metrics (the metrics exist once the server does).
  const stores = timedStores(options.faults?.stores?.(opened) ?? opened, (store, method, seconds, ok) => metrics?.storeCall(store, method, seconds, ok));
  const { cache, candles, funding, identities, rateLimiter } = stores;
  const events = closableEvents(stores.events);
  const reader = new MarketReader(directory, cache, clock);
  const ingest = new IngestLoop({
    ...{ sources, cache, candles, funding, reader, events, clock, logger, lease: stores.lease },
    freshnessHeartbeatMs: config.freshnessHeartbeatMs,
  });
  const { bootstrap, controls: controlsFile } = options.startFiles ?? readStartFiles(config);
  const protocols = new ProtocolRegistry(DEFAULT_PROTOCOLS);
  const controls = new ExecutionControls();
  if (controlsFile) applyControlsFile(controlsFile, controls, protocols, new Date(clock.now()).toISOString());
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
      venues: options.faults?.venues?.(createPaperVenues(directory)) ?? createPaperVenues(directory),
      identities,
      ...stores.execution,
      ledger: new Ledger(stores.execution.ledger),
      audit: new AuditTrail(stores.execution.audit, clock, logger),
      events,
      durability: stores.durability,
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
    answerVersion: answerVersion(reader, protocols, stores.sharedState),
  };

  // Shared by Yoga's plugins and the public fast path (createServer), so both decide alike.
  const rateLimits: RateLimitOptions = {
    limiter: rateLimiter,
    publicPolicy: { name: 'public', points: config.rateLimits.publicPerMinute, windowSeconds: 60 },
    keyPolicy: { name: 'api-key', points: config.rateLimits.keyPerMinute, windowSeconds: 60 },
    authenticator,
    trustProxy: config.trustProxy,
    logger,
    onRejected: (policy) => metrics?.rateLimitRejection(policy),
  };
  // Below both the public fast path and the Sofa path: answers rendered once per snapshot version, and their br/gzip.
  const answers = new RenderedAnswers(
    () => services.answerVersion(),
    () => clock.now(),
  );
  const encoder = new AnswerEncoder();
  const sofaRoutes = useSofaRoutes({ contract: services.contract, logger, answers, encoder });

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema: buildSchema(),
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    landingPage: false,
    // Yoga's built-in health check answers any URL *ending* in its endpoint with an empty 200; a
    // parsed URL never contains a literal space, so this keeps it unreachable (only contract routes exist).
    healthCheckEndpoint: ' ',
    graphiql: config.env === 'development',
    // GraphiQL from the package's own bundle: nothing is loaded from a CDN.
    renderGraphiQL,
    cors: corsPolicy(config.limits.corsOrigins),
    // Never put stacks into `extensions`, in any environment.
    maskedErrors: { isDev: false },
    logging: yogaLogging(logger),
    // graphql-ws authenticates once at connection and passes its RequestAuth in.
    context: (initial: { request?: Request; auth?: RequestAuth }): GatewayContext =>
      requestContext(services, currentScope(), initial.auth ?? initial.request?.headers.get('authorization')),
    plugins: [
      ...boundedGraphqlPlugins(config.limits.graphql, config.env === 'production'),
      useContractRoutes(ROUTES, GRAPHQL_ENDPOINT),
      useRateLimits(rateLimits),
      useAuthFirst({ authenticator, operator: services.operator, logger }),
      useJsonBodies(GRAPHQL_ENDPOINT),
      useStrictBodies(),
      useCleanErrors(),
      // jit's compiled subscribe drops field arguments: compile queries and mutations only.
      useGraphQlJit({}, { enableIf: (args) => getOperationAST(args.document, args.operationName)?.operation !== 'subscription' }),
      // After jit: introspection by anyone but the operator runs on the schema without operator fields.
      useOperatorIntrospection(services.operator),
      sofaRoutes,
      useSharedEventResults(),
      useOperationMetrics(() => metrics),
      useExecuteOutcomeMetrics(() => metrics),
    ],
  });

  const closers: (() => Promise<void>)[] = [];
  let metrics: GatewayMetrics | undefined; // made with the server (createServer)
  const lifecycle = new LifecycleState();
  const endStreams = async () => {
    events.endSubscriptions();
    // Let the completions reach the sockets before they close.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all(closers.splice(0).map((c) => c()));
  };
  return {
    lifecycle,
    endStreams,
    services,
    stores,
    yoga,
    async start(startOptions = {}) {
      const t0 = clock.now();
      const nowIso = new Date(t0).toISOString();
      let demoKey: string | undefined;
      await stores.connect();
      await services.sharedControls.start();
      execution.reconciler.start(RECONCILE_EVERY_MS);
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
      lifecycle.started = true;
      return demoKey ? { demoKey } : {};
    },
    createServer() {
      const sofa = sofaRoutes.currentSofa();
      const fastPath =
        config.publicFastPath && sofa
          ? new PublicFastPath({ services, routes: ROUTES, sofa, rateLimits, masking: yogaMasking(yoga), logger, answers, encoder })
          : undefined;
      const readiness = { state: lifecycle, sharedState: stores.sharedState, ping: () => stores.ping(), healthBySource: () => reader.healthBySource() };
      metrics = new GatewayMetrics({ ...readiness, openSockets: () => ws.openSockets(), now: () => clock.now(), events });
      const edge = new ServerEdge({
        routes: ROUTES,
        graphqlEndpoint: GRAPHQL_ENDPOINT,
        metrics,
        readiness: { ...readiness, sourceIds: sources.map((s) => s.id), now: () => clock.now() },
        metricsToken: config.metricsToken,
        logger: config.accessLog ? logger : undefined,
      });
      const mcp = new McpEndpoint((url, init) => yoga.fetch(url, init));
      const dashboard = new DashboardAssets();
      const server = createServer((req, res) => {
        const requestId = requestIdOf(req.headers['x-request-id']);
        // The spec's other name for the public contract document.
        if (req.url === '/openapi.public.json' || req.url?.startsWith('/openapi.public.json?')) req.url = `/api/v1/public${req.url}`;
        // Decided before the edge serves HEAD as GET; written with the answer's own head on the fast path.
        const security = securityHeaders(req, GRAPHQL_ENDPOINT);
        if (edge.accept(req, res, requestId, security)) return; // request id, HEAD, metrics, access log, /healthz /readyz /metrics
        // Public GET routes skip the fetch-API and router layers; everything else goes through Yoga and Sofa.
        if (fastPath?.handle(req, res, requestId, security)) return;
        setHeaders(res, security);
        // Model Context Protocol tools for agents (internal to the REST contract: in neither document).
        if (req.url === MCP_PATH || req.url?.startsWith(`${MCP_PATH}?`)) {
          res.setHeader('x-request-id', requestId);
          // The same edge as every route: identity encoding only, and the body limit while it streams.
          return admitRequest(req, res, requestId, { maxBodyBytes: config.limits.maxBodyBytes }, () =>
            mcp.handle(req, res, requestId).catch((err: unknown) => {
              logger.error({ err }, 'mcp request failed');
              if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
              res.end(JSON.stringify(errorResponse(500, 'internal_error', 'The MCP request failed.', requestId)));
            }),
          );
        }
        // The live dashboard (first-party, in neither contract document): built assets from dist/dashboard.
        if (dashboard.handle(req, res, requestId)) return;
        res.setHeader('x-request-id', requestId);
        admitRequest(req, res, requestId, { maxBodyBytes: config.limits.maxBodyBytes }, () => runInScope(edge.scopeOf(req, requestId), () => yoga(req, res)));
      });
      answerClientErrors(server, logger);
      const ws = attachGraphqlWs(server, yoga as never, { authenticator, rateLimits, limits: config.limits.ws });
      closers.push(() => ws.close());
      return server;
    },
    async stop() {
      await endStreams();
      ingest.stop();
      execution.reconciler.stop();
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
