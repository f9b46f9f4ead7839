import type { AppServices } from '../src/app-services.js';
import type { RequestAuth } from '../src/auth/authenticator.js';
import type { RequestScope } from '../src/http/request-scope.js';

/** What every resolver receives: the services built at start-up, the request's auth and, over HTTP, its scope. */
export interface GatewayContext {
  services: AppServices;
  auth: RequestAuth;
  http: RequestScope | undefined;
}
