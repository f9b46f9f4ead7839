import type { Plugin } from 'graphql-yoga';
import { errorJson, errorResponse } from '../errors/error-response.js';
import { errorOutcomeResponse } from './error-outcome.js';
import { RouteMatcher } from '../contract/route-matcher.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { queryRejection } from './query-checks.js';
import { currentScope } from './request-scope.js';

/**
 * Only contract routes exist. Under `/api/` a request must match a registry row (so Sofa's
 * default per-field routes, its webhook routes and its docs are unreachable); a known path with
 * another method is 405; everything outside `/api/` and the GraphQL endpoint is a JSON 404.
 * Integer and empty query parameters are checked here: Sofa coerces integers before any resolver
 * runs and reads an empty value as absent.
 */
export function useContractRoutes(routes: readonly RouteSpec[], graphqlEndpoint: string): Plugin {
  const matcher = new RouteMatcher(routes);
  return {
    onRequest({ request, url, endResponse }) {
      const path = url.pathname;
      if (path === graphqlEndpoint) return;
      const scope = currentScope();
      const requestId = scope?.requestId;
      let matches;
      try {
        matches = path.startsWith('/api/') ? matcher.match(path) : [];
      } catch {
        return endResponse(errorJson(400, errorResponse(400, 'invalid_request', 'The path is not valid percent-encoding.', requestId, { retryable: false })));
      }
      if (matches.length === 0) {
        return endResponse(
          errorJson(
            404,
            errorResponse(404, 'route_not_found', `No route ${request.method} ${path}.`, requestId, {
              retryable: false,
              nextAction: 'See the contract at GET /api/v1/public/openapi.public.json.',
            }),
          ),
        );
      }
      const match = matches.find((m) => m.route.method === request.method);
      if (!match) {
        const allow = [...new Set(matches.map((m) => m.route.method))].join(', ');
        return endResponse(
          errorJson(
            405,
            errorResponse(405, 'method_not_allowed', `${request.method} is not allowed on ${path}; use ${allow}.`, requestId, { retryable: false }),
            { allow },
          ),
        );
      }
      if (scope) scope.route = match.route;
      const rejection = queryRejection(match.route, url.searchParams, requestId);
      if (rejection) return endResponse(errorOutcomeResponse(rejection));
    },
  };
}
