import type { GatewayContext } from './gateway-context.js';
import type { AppServices } from './app-services.js';
import { RequestAuth } from '../auth/authenticator.js';
import type { RequestScope } from './request-scope.js';

/**
 * The resolvers' context for one request. Yoga's context factory and the public fast path both
 * build it here. `auth` is the RequestAuth graphql-ws made at connection, or the request's
 * Authorization header, resolved lazily only if a field asks for it.
 */
export function requestContext(services: AppServices, http: RequestScope | undefined, auth: RequestAuth | string | null | undefined): GatewayContext {
  const requestAuth = auth instanceof RequestAuth ? auth : (http?.auth ?? new RequestAuth(services.authenticator, auth));
  if (http) http.auth = requestAuth;
  return { services, http, auth: requestAuth };
}
