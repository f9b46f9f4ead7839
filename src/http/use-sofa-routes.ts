import type { GraphQLSchema } from 'graphql';
import { mapMaybePromise, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { createSofaRouter, createSofa } from 'sofa-api';
import type { ContractDocuments } from '../contract/contract-documents.js';
import { ROUTES, sofaPath } from '../contract/route-registry.js';
import { cacheControlFor, etagMatches } from './cache-headers.js';
import { currentScope } from './request-scope.js';
import { sofaErrorHandler } from './sofa-error-handler.js';

/** Sofa's route table, derived from the registry: one row per contract route. */
export function sofaRoutes(): Record<string, { method: (typeof ROUTES)[number]['method']; path: string; tags: string[]; description: string }> {
  return Object.fromEntries(
    ROUTES.map((r) => [r.field, { method: r.method, path: sofaPath(r), tags: [r.visibility], description: r.summary }]),
  );
}

export interface SofaRoutesOptions {
  contract: ContractDocuments;
  logger: Logger;
}

/**
 * Serves the contract's REST routes through Sofa, executing through Yoga's envelop (so jit and
 * context apply), and finishes each response: envelope status, Cache-Control, ETag and 304.
 * Unlike the stock plugin it keeps Sofa's OpenAPI output for the contract documents and turns off
 * Sofa's Swagger UI.
 */
export function useSofaRoutes(options: SofaRoutesOptions): Plugin {
  let router: ReturnType<typeof createSofaRouter> | undefined;
  let getEnveloped: Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];
  const envelopedByContext = new WeakMap<object, ReturnType<typeof getEnveloped>>();

  const build = (schema: GraphQLSchema) => {
    const sofa = createSofa({
      schema,
      basePath: '/api',
      routes: sofaRoutes(),
      // fets collects paths only while its document route exists; the contract guard keeps it unreachable.
      openAPI: { endpoint: '/openapi.json', info: { title: 'Trading Gateway', version: '1.0.0' } },
      swaggerUI: { endpoint: false },
      customScalars: {
        DateTime: { type: 'string', format: 'date-time' },
        Decimal: { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' },
        JSONObject: { type: 'object', additionalProperties: true },
      },
      errorHandler: sofaErrorHandler(options.logger) as never,
      context: (serverContext) => {
        const enveloped = getEnveloped(serverContext);
        return mapMaybePromise(enveloped.contextFactory(serverContext), (contextValue) => {
          envelopedByContext.set(contextValue, enveloped);
          return contextValue;
        });
      },
      execute: ((args: { contextValue: object }) => envelopedByContext.get(args.contextValue)!.execute(args as never)) as never,
    });
    router = createSofaRouter(sofa);
    options.contract.update(router.openAPIDocument as never, schema);
  };

  return {
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema }) {
      build(schema);
    },
    onRequest({ request, serverContext, url, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith('/api/') || !router) return;
      return mapMaybePromise(router.handle(request, serverContext as never), (response) => {
        if (response) endResponse(finish(request, response as Response, fetchAPI));
      });
    },
  };
}

function finish(request: Request, response: Response, fetchAPI: { Response: typeof Response; Headers: typeof Headers }): Response {
  const { Response, Headers } = fetchAPI;
  const scope = currentScope();
  const route = scope?.route;
  if (!scope || !route || response.status >= 400) return response;
  const headers = new Headers(response.headers);
  headers.set('cache-control', cacheControlFor(route, scope));
  if (route.caching === 'etag' && scope.etag) {
    headers.set('etag', scope.etag);
    if (etagMatches(request.headers.get('if-none-match'), scope.etag)) {
      headers.delete('content-type');
      headers.delete('content-length');
      return new Response(null, { status: 304, headers });
    }
  }
  return new Response(response.body, { status: scope.status ?? response.status, headers });
}
