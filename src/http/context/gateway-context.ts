import type { AppServices } from './app-services.js';
import type { RequestAuth } from '../../auth/authenticator.js';
import type { RequestScope } from './request-scope.js';

/** What every resolver receives: the services built at start-up, the request's auth and, over HTTP, its scope. */
export interface GatewayContext {
  services: AppServices;
  auth: RequestAuth;
  http: RequestScope | undefined;
}
