import type { AppServices } from '../src/app-services.js';
import type { RequestScope } from '../src/http/request-scope.js';

/** What every resolver receives: the services built at start-up and, over HTTP, the request scope. */
export interface GatewayContext {
  services: AppServices;
  http: RequestScope | undefined;
}
