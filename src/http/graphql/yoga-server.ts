import { useGraphQlJit } from '@envelop/graphql-jit';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { getOperationAST, type GraphQLSchema } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { RequestAuth } from '../../auth/authenticator.js';
import type { GatewayConfig } from '../../config/gateway-config.js';
import type { AppServices } from '../context/app-services.js';
import type { GatewayContext } from '../context/gateway-context.js';
import { requestContext } from '../context/request-context.js';
import type { Exchange } from '../pipeline/exchange.js';
import { boundedGraphqlPlugins } from './bounded-graphql.js';
import { useCleanErrors } from './use-clean-errors.js';
import { useUnexpectedErrorLog } from './use-unexpected-error-log.js';
import { useGraphqlAuth } from './use-graphql-auth.js';
import { useOperatorIntrospection } from './use-operator-introspection.js';
import { useSharedEventResults } from './use-shared-event-results.js';
import { yogaLogging } from './yoga-logging.js';

export const GRAPHQL_ENDPOINT = '/graphql';

/** What Yoga's context factory is given: graphql-ws passes the connection's RequestAuth, the REST stages their exchange. */
interface InitialContext {
  request?: Request;
  auth?: RequestAuth;
  exchange?: Exchange;
}

/**
 * The GraphQL face (Yoga: HTTP, SSE, and graphql-ws through its envelop), and the executor of
 * every REST route's operation: one plugin list, so a REST route and a GraphQL request run the
 * same limits, auth checks, jit and masking. CORS, rate limits, body limits and media types are
 * the gateway's stages, before Yoga (src/http/pipeline/gateway-stages.ts).
 */
export function createGatewayYoga(options: { schema: GraphQLSchema; services: AppServices; config: GatewayConfig; logger: Logger; metricsPlugins: Plugin[] }) {
  const { services, config, logger } = options;
  return createYoga<Record<string, unknown>, GatewayContext>({
    schema: options.schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    landingPage: false,
    // Yoga's built-in health check answers any URL *ending* in its endpoint with an empty 200; a
    // parsed URL never contains a literal space, so this keeps it unreachable (only registry routes exist).
    healthCheckEndpoint: ' ',
    graphiql: config.env === 'development',
    // GraphiQL from the package's own bundle: nothing is loaded from a CDN.
    renderGraphiQL,
    // The CORS stage answers for /graphql as for every route.
    cors: false,
    // Never put stacks into `extensions`, in any environment.
    maskedErrors: { isDev: false },
    logging: yogaLogging(logger),
    context: (initial: InitialContext): GatewayContext => {
      const exchange = initial.exchange;
      const scope = exchange ? { requestId: exchange.requestId, ...(exchange.route.serves === 'contract' ? { route: exchange.route.spec } : {}) } : undefined;
      return requestContext(
        services,
        scope,
        initial.auth ?? exchange?.auth ?? exchange?.header('authorization') ?? initial.request?.headers.get('authorization'),
      );
    },
    plugins: [
      ...boundedGraphqlPlugins(config.limits.graphql, config.env === 'production'),
      useGraphqlAuth({ operator: services.operator, logger }),
      useCleanErrors(),
      // jit's compiled subscribe drops field arguments: compile queries and mutations only.
      useGraphQlJit({}, { enableIf: (args) => getOperationAST(args.document, args.operationName)?.operation !== 'subscription' }),
      // After jit: wraps the execute that runs, so it sees an unexpected error before Yoga masks it.
      useUnexpectedErrorLog(logger),
      // After jit: introspection by anyone but the operator runs on the schema without operator fields.
      useOperatorIntrospection(services.operator),
      useSharedEventResults(),
      ...options.metricsPlugins,
    ],
  });
}

export type GatewayYoga = ReturnType<typeof createGatewayYoga>;
