import type { Logger } from 'pino';
import type { EndpointKind } from '../../contract/routes/endpoints.js';
import type { RouteTable, ServedRoute } from '../../contract/route-table.js';
import { internalError } from '../../errors/availability-refusals.js';
import { methodNotAllowed, routeNotFound } from '../../errors/error-factories.js';
import { refusalAnswer, type Answer, type HeaderList } from './answer.js';
import { inProcessExchange, type Exchange } from './exchange.js';
import type { InProcessRequest } from './in-process.js';
import { runStages, type Stage } from './stage.js';

/** A handler wrote its answer to the response itself (GraphQL, MCP: streamed). */
export const WRITTEN = Symbol('written');
type Outcome = Answer | typeof WRITTEN;

/** What answers a route once its stages let it through. */
export type RouteHandler = (exchange: Exchange, security: HeaderList) => Outcome | Promise<Outcome>;

/** One handler per kind of route: the contract's REST routes and each endpoint beside them. */
export type RouteHandlers = Record<'contract' | EndpointKind, RouteHandler>;

/**
 * Every request's way through the gateway: the stages of its route (in gateway-stages.ts order,
 * those that apply to it, chosen once per route), then the route's handler. Requests over the
 * network and in-process calls (MCP) take the same way.
 */
export class GatewayPipeline {
  private readonly plans = new Map<ServedRoute | string, readonly Stage[]>();

  constructor(
    private readonly table: RouteTable,
    private readonly stages: readonly Stage[],
    private readonly handlers: RouteHandlers,
    private readonly logger: Logger,
  ) {}

  /** Answers an exchange: an answer to write, or WRITTEN when the handler wrote it. */
  serve(exchange: Exchange, security: HeaderList): Outcome | Promise<Outcome> {
    const refused = runStages(this.planOf(exchange.route), exchange);
    if (refused instanceof Promise) return refused.then((answer) => answer ?? this.handle(exchange, security));
    return refused ?? this.handle(exchange, security);
  }

  /** An in-process request (an MCP tool call) through the same stages and handler; only routes that answer with a value. */
  async serveInProcess(request: InProcessRequest): Promise<Answer> {
    const exchange = inProcessExchange(request, this.table.resolve(request.method, request.path));
    try {
      const outcome = await this.serve(exchange, []);
      if (outcome === WRITTEN) throw new Error(`${request.path} cannot be answered in-process`);
      return outcome;
    } catch (err) {
      this.logger.error({ err, requestId: request.requestId, route: exchange.route.template }, 'in-process request failed');
      return refusalAnswer(exchange, internalError());
    }
  }

  private handle(exchange: Exchange, security: HeaderList): Outcome | Promise<Outcome> {
    const { route } = exchange;
    if (route.serves === 'unserved') return refusalAnswer(exchange, unserved(exchange, route.allow));
    return this.handlers[route.serves](exchange, security);
  }

  private planOf(route: ServedRoute): readonly Stage[] {
    // Unserved rows are made per request: their plan is kept by what decides it (the path's template).
    const key = route.serves === 'unserved' ? `unserved ${route.template}` : route;
    let plan = this.plans.get(key);
    if (!plan) this.plans.set(key, (plan = this.stages.filter((s) => s.appliesTo(route))));
    return plan;
  }
}

/** A path no route has (JSON 404), or a method its routes do not serve (405 naming those that are; HEAD wherever GET). */
function unserved(exchange: Exchange, allow: readonly string[]) {
  if (allow.length === 0) return routeNotFound(`No route ${exchange.method} ${exchange.path}.`, 'See the contract at GET /api/v1/public/openapi.public.json.');
  return methodNotAllowed(exchange.method, exchange.path, allow.includes('GET') ? [...allow, 'HEAD'] : allow);
}
