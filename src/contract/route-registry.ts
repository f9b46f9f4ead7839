import type { RouteSpec } from './route-spec.js';
import { AGENT_ROUTES } from './routes/agent.js';
import { DATA_ROUTES } from './routes/data.js';
import { EXECUTION_ROUTES } from './routes/execution.js';
import { PUBLIC_ROUTES } from './routes/public.js';

export { AGENT_ROUTES, DATA_ROUTES, EXECUTION_ROUTES, PUBLIC_ROUTES };
export type { RouteSpec } from './route-spec.js';

/** Every route of the contract, once: Sofa's routes, both OpenAPI documents, workflow nodes and the route guard derive from it. */
export const ROUTES: readonly RouteSpec[] = [...PUBLIC_ROUTES, ...DATA_ROUTES, ...AGENT_ROUTES, ...EXECUTION_ROUTES];

/** `/api/v1/public/markets/{asset}` → `/v1/public/markets/:asset` under Sofa's `/api` base path. */
export function sofaPath(route: RouteSpec): string {
  return route.path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1');
}
