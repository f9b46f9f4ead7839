import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { buildSchema } from '../../schema/index.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import { ROUTES } from '../contract/route-registry.js';
import { RouteTable } from '../contract/route-table.js';
import type { RouteSpec } from '../contract/route-spec.js';
import type { Clock } from '../domain/clock.js';
import type { GatewayStores } from '../stores/gateway-stores.js';
import { McpEndpoint } from '../http/agents/mcp-endpoint.js';
import type { AppServices } from '../http/context/app-services.js';
import { DashboardAssets } from '../http/dashboard/dashboard-assets.js';
import { graphqlEndpoint } from '../http/graphql/graphql-endpoint.js';
import { attachGraphqlWs } from '../http/graphql/graphql-ws.js';
import { createGatewayYoga, type GatewayYoga } from '../http/graphql/yoga-server.js';
import { useExecuteOutcomeMetrics } from '../http/operations/execute-outcome-metrics.js';
import { GatewayMetrics, useOperationMetrics } from '../http/operations/gateway-metrics.js';
import { operationsEndpoints } from '../http/operations/operations-endpoints.js';
import type { LifecycleState } from '../http/operations/readiness.js';
import { GatewayPipeline } from '../http/pipeline/gateway-pipeline.js';
import { gatewayStages } from '../http/pipeline/gateway-stages.js';
import type { RateLimitOptions } from '../http/pipeline/rate-limits.js';
import { AnswerEncoder } from '../http/rest/answer-encoding.js';
import { buildContractSofa } from '../http/rest/contract-sofa.js';
import { PublicAnswerCache } from '../http/rest/public-answer-cache.js';
import { restAnswers } from '../http/rest/rest-answers.js';
import { routeOperations, type RouteOperation } from '../http/rest/route-operations.js';
import type { Enveloped } from '../http/rest/route-execution.js';
import { createGatewayServer } from '../http/server/gateway-server.js';
import { RequestObserver } from '../http/server/request-observer.js';

/** The three faces over the one schema: REST (the contract), GraphQL (HTTP, SSE, graphql-ws), and the endpoints beside them. */
export interface HttpPlane {
  yoga: GatewayYoga;
  metrics: GatewayMetrics;
  /** A node:http server with graphql-ws attached; not yet listening. */
  createServer(): Server;
  /** Closes every graphql-ws socket with 1001 (going away). */
  closeSockets(): Promise<void>;
}

export function httpPlane(
  config: GatewayConfig,
  deps: { services: AppServices; stores: GatewayStores; lifecycle: LifecycleState; clock: Clock; logger: Logger },
): HttpPlane {
  const { services, stores, lifecycle, clock, logger } = deps;
  const sockets: { openSockets(): number; close(): Promise<void> }[] = [];
  const metrics = new GatewayMetrics({
    openSockets: () => sockets.reduce((n, s) => n + s.openSockets(), 0),
    upstreams: () => services.sources.flatMap((s) => (s.upstream ? [{ venue: s.id, report: s.upstream() }] : [])),
    sharedState: stores.sharedState,
    healthBySource: () => services.reader.healthBySource(),
    now: () => clock.now(),
    events: services.events,
  });
  const schema = buildSchema();
  const yoga = createGatewayYoga({
    schema,
    services,
    config,
    logger,
    metricsPlugins: [useOperationMetrics(() => metrics), useExecuteOutcomeMetrics(() => metrics)],
  });
  // The contract (its operations and documents) is derived from the schema Yoga serves, once.
  const sofa = buildContractSofa(schema, services.contract);
  const operations: ReadonlyMap<RouteSpec, RouteOperation> = routeOperations(sofa, ROUTES);

  const rateLimits: RateLimitOptions = {
    limiter: stores.rateLimiter,
    publicPolicy: { name: 'public', points: config.rateLimits.publicPerMinute, windowSeconds: 60 },
    keyPolicy: { name: 'api-key', points: config.rateLimits.keyPerMinute, windowSeconds: 60 },
    authenticator: services.authenticator,
    trustProxy: config.trustProxy,
    logger,
    onRejected: (policy) => metrics.rateLimitRejection(policy),
  };
  const table = new RouteTable();
  const stages = gatewayStages({
    lifecycle,
    corsOrigins: config.limits.corsOrigins,
    maxBodyBytes: config.limits.maxBodyBytes,
    rateLimits,
    authenticator: services.authenticator,
    operator: services.operator,
    restSchema: () => sofa.schema,
    logger,
  });
  const operationsRoutes = operationsEndpoints({
    readiness: {
      state: lifecycle,
      sharedState: stores.sharedState,
      ping: () => stores.ping(),
      healthBySource: () => services.reader.healthBySource(),
      sourceIds: services.sources.map((s) => s.id),
      now: () => clock.now(),
    },
    metrics,
    metricsToken: config.metricsToken,
  });
  const dashboard = new DashboardAssets();
  // MCP tool calls are REST requests made in-process, through the same pipeline.
  const mcp: McpEndpoint = new McpEndpoint((request) => pipeline.serveInProcess(request), logger);
  const pipeline: GatewayPipeline = new GatewayPipeline(
    table,
    stages,
    {
      contract: restAnswers({
        cache: new PublicAnswerCache(
          () => services.answerVersion(),
          () => clock.now(),
        ),
        encoder: new AnswerEncoder(),
        operations: () => operations,
        envelop: (initial) => yoga.getEnveloped(initial) as unknown as Enveloped,
        logger,
      }),
      graphql: graphqlEndpoint(yoga),
      health: operationsRoutes.health,
      readiness: operationsRoutes.readiness,
      metrics: operationsRoutes.metrics,
      mcp: mcp.handler(),
      dashboard: (exchange) => dashboard.answer(exchange),
    },
    logger,
  );
  const observer = new RequestObserver({ metrics, lifecycle, logger: config.accessLog ? logger : undefined });
  return {
    yoga,
    metrics,
    createServer() {
      const server = createGatewayServer({ table, pipeline, observer, logger });
      sockets.push(attachGraphqlWs(server, yoga as never, { authenticator: services.authenticator, rateLimits, limits: config.limits.ws }));
      return server;
    },
    closeSockets: async () => void (await Promise.all(sockets.splice(0).map((s) => s.close()))),
  };
}
