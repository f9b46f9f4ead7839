import type { GatewayContext } from './gateway-context.js';
import type { AppServices } from './app-services.js';
import { RequestAuth } from '../../auth/authenticator.js';
import type { RequestScope } from './request-scope.js';

/**
 * The resolvers' context for one request, made by Yoga's context factory for GraphQL and for
 * the REST routes alike. `auth` is the RequestAuth the stages or graphql-ws already made, or the
 * request's Authorization header, resolved lazily only if a field asks for it.
 */
export function requestContext(services: AppServices, http: RequestScope | undefined, auth: RequestAuth | string | null | undefined): GatewayContext {
  const requestAuth = auth instanceof RequestAuth ? auth : new RequestAuth(services.authenticator, auth);
  return { services, http, auth: requestAuth };
}
