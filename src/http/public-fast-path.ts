import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGraphQLError } from '@graphql-tools/utils';
import { getCORSHeadersByRequestAndOptions } from '@whatwg-node/server';
import type { GraphQLError, OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Logger } from 'pino';
import type { AppServices } from './app-services.js';
import { RouteMatcher } from '../contract/route-matcher.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { errorHeaders } from '../errors/error-response.js';
import { renderJson } from '../domain/rendered-json.js';
import type { ErrorOutcome } from './error-outcome.js';
import { finishHead } from './finish-head.js';
import { queryRejection } from './query-checks.js';
import { requestContext } from './request-context.js';
import type { RequestScope } from './request-scope.js';
import { restErrorOutcome } from './sofa-error-handler.js';
import { sofaGetVariables, sofaQueryDocument } from './sofa-operation.js';
import { checkRateLimit, rateLimitHeaders, type RateLimitOptions } from './use-rate-limits.js';
import { PUBLIC_CORS } from './cors-policy.js';
import type { GatewaySofa } from './use-sofa-routes.js';
import { answerKey, type RenderedAnswers } from './rendered-answers.js';
import { answerHeaders, NOT_MODIFIED_VARY, type AnswerEncoder } from './answer-encoding.js';
import { setHeaders, type HeaderList } from './security-headers.js';

/** Yoga's error masking (its `maskedErrorsOpts`), applied to execution errors as its envelop plugin does for Sofa. */
export interface ErrorMasking {
  errorMessage: string;
  maskError(error: GraphQLError, message: string): GraphQLError;
}

export interface PublicFastPathOptions {
  services: AppServices;
  /** Every contract route: a path is matched as the contract guard matches it. */
  routes: readonly RouteSpec[];
  /** The Sofa configuration Yoga's Sofa routes were built from (schema, models, ignore, depth). */
  sofa: GatewaySofa;
  rateLimits: RateLimitOptions;
  /** null when Yoga does not mask errors. */
  masking: ErrorMasking | null;
  logger: Logger;
  /** Answers rendered once per snapshot version, shared with the Sofa path. */
  answers: RenderedAnswers;
  /** br/gzip of public answers, shared with the Sofa path. */
  encoder: AnswerEncoder;
}

interface PublicOperation {
  route: RouteSpec;
  /** The root field, which is also the key of Sofa's response body in `data`. */
  fieldName: string;
  operation: OperationDefinitionNode;
  compiled: CompiledQuery;
}

type Outcome = { error: ErrorOutcome } | { body: string; scope: RequestScope };

const JSON_TYPE = 'application/json; charset=utf-8';
/** Only URLs that WHATWG URL parsing leaves as they are, so Yoga's route, query and Sofa's would be the same. */
const PLAIN_URL = /^\/api\/[\w\-.~%!$&'()*+,;=:@/?]*$/;
/** `.`/`..` segments (also percent-encoded) are removed by URL parsing: leave those to Yoga. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
const NO_QUERY = new URLSearchParams();
const MATCH_CACHE_LIMIT = 2_000;

/** A path's first GET match as the contract guard finds it (undefined: none, or not a compiled public route). */
type PathMatch = { operation: PublicOperation; params: Record<string, string> } | undefined;

/**
 * Public GET routes answered at the node:http level, without the fetch-API objects, Sofa's router
 * and a second server-adapter pass, yet not beside the schema: the same contract guard checks,
 * the same rate-limit decision and 429, the same context, the very document Sofa builds for the
 * field compiled once with graphql-jit, Sofa's variable parsing, Sofa's error mapping and the same
 * finishing (envelope status, Cache-Control, ETag and 304). Anything else (another method, a URL
 * Yoga would normalise, a non-public route) is left to Yoga and Sofa.
 *
 * No AsyncLocalStorage scope is entered: the request scope reaches resolvers as `ctx.http`, which
 * is the only way resolvers may read it.
 */
export class PublicFastPath {
  private readonly matcher: RouteMatcher;
  private readonly operations = new Map<RouteSpec, PublicOperation>();
  /** Matches by path: the same few paths are asked again and again. Bounded: cleared when full. */
  private readonly matchOfPath = new Map<string, PathMatch>();

  constructor(private readonly options: PublicFastPathOptions) {
    // GET rows only, in registry order: the first match is the contract guard's first GET match.
    this.matcher = new RouteMatcher(options.routes.filter((r) => r.method === 'GET'));
    for (const route of options.routes) {
      if (route.visibility !== 'public' || route.method !== 'GET' || !route.field.startsWith('Query.')) continue;
      const fieldName = route.field.slice('Query.'.length);
      const { document, operation } = sofaQueryDocument(options.sofa, fieldName);
      // The options of useGraphQlJit({}) in the Yoga plugin list.
      const compiled = compileQuery(options.sofa.schema, document, operation.name?.value, {});
      if (!isCompiledQuery(compiled)) {
        options.logger.warn({ route: route.operationId, errors: compiled.errors }, 'public route not compiled; it stays on Sofa');
        continue;
      }
      this.operations.set(route, { route, fieldName, operation, compiled });
    }
  }

  /** The operation a public route runs (for tests comparing it with Sofa's). */
  operationFor(route: RouteSpec): OperationDefinitionNode | undefined {
    return this.operations.get(route)?.operation;
  }

  /** Answers a public GET and returns true; returns false, having done nothing, for Yoga to handle it. */
  handle(req: IncomingMessage, res: ServerResponse, requestId: string, security: HeaderList): boolean {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !PLAIN_URL.test(url)) return false;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const found = this.matchOf(path);
    if (!found) return false;
    const { operation, params } = found;
    this.serve(req, res, requestId, security, operation, params, q === -1 ? undefined : url.slice(q + 1)).catch((err: unknown) => {
      // A fault of this path itself: logged and answered as Sofa's handler answers an unexpected error.
      if (!res.headersSent)
        return this.writeError(res, requestId, security, restErrorOutcome([err], { requestId, route: operation.route }, this.options.logger), {});
      this.options.logger.error({ err, requestId, route: operation.route.operationId }, 'public fast path failed after its headers');
      res.destroy();
    });
    return true;
  }

  private matchOf(path: string): PathMatch {
    if (this.matchOfPath.has(path)) return this.matchOfPath.get(path);
    if (DOT_SEGMENT.test(path)) return undefined;
    let matches;
    try {
      matches = this.matcher.match(path);
    } catch {
      return undefined; // bad percent-encoding: the contract guard's 400
    }
    const match = matches[0];
    const operation = match && match.route.visibility === 'public' ? this.operations.get(match.route) : undefined;
    const found = match && operation ? { operation, params: match.params } : undefined;
    if (this.matchOfPath.size >= MATCH_CACHE_LIMIT) this.matchOfPath.clear();
    this.matchOfPath.set(path, found);
    return found;
  }

  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    security: HeaderList,
    op: PublicOperation,
    params: Record<string, string>,
    query: string | undefined,
  ): Promise<void> {
    const { route } = op;
    const cors = corsHeaders(req);
    // Order as on the Yoga path: contract guard, then rate limit, then Sofa.
    const searchParams = query ? new URLSearchParams(query) : NO_QUERY;
    const rejection = queryRejection(route, searchParams, requestId);
    if (rejection) return this.writeError(res, requestId, security, rejection, cors);
    const rate = await checkRateLimit(this.options.rateLimits, {
      isPublic: true,
      forwardedFor: req.headers['x-forwarded-for'] as string | undefined,
      remoteAddress: req.socket.remoteAddress,
      requestId,
    });
    if (rate.rejection) return this.writeError(res, requestId, security, rate.rejection, cors);
    const limits = rate.decision ? rateLimitHeaders(rate.decision) : {};

    // The same URL answered at the same snapshot version: the remembered body, re-timed (RenderedAnswers).
    const key = answerKey(route, req.url!.split('?', 1)[0]!, searchParams);
    const rendered = this.options.answers.answer(key);
    let body: string;
    let scope: RequestScope;
    if (rendered) {
      body = rendered.body;
      scope = { requestId, route, ...rendered.scope };
    } else {
      const outcome = await this.execute(req, requestId, op, params);
      if ('error' in outcome) return this.writeError(res, requestId, security, outcome.error, { ...cors, ...limits });
      ({ body, scope } = outcome);
      this.options.answers.remember(key, body, scope);
    }
    const head = finishHead(route, scope, 200, req.headers['if-none-match']);
    // One writeHead with every header (the security headers included, none set before it): node:http's fast case.
    if (head.notModified) {
      // Compressing happens only for an answer that is sent.
      res.writeHead(304, headerList(security, answerHeaders({ 'x-request-id': requestId, ...head.headers }, cors, NOT_MODIFIED_VARY, limits)));
      return void res.end();
    }
    const encoded = this.options.encoder.encode(body, req.headers['accept-encoding'], rendered?.encodings);
    const headers = answerHeaders({ 'x-request-id': requestId, ...head.headers }, cors, encoded.headers, limits);
    headers['content-type'] = JSON_TYPE;
    headers['content-length'] = String(encoded.body.length);
    res.writeHead(head.status, headerList(security, headers));
    res.end(encoded.body);
  }

  /** What Sofa's route handler does for a GET: variables, context, execute, `data[field]` or the error handler. */
  private async execute(req: IncomingMessage, requestId: string, op: PublicOperation, params: Record<string, string>): Promise<Outcome> {
    const { services, sofa, masking, logger } = this.options;
    const scope: RequestScope = { requestId, route: op.route };
    let variables: Record<string, unknown>;
    try {
      // Sofa reads the query string as `url.split('?')[1]`.
      variables = sofaGetVariables(sofa.schema, op.operation, params, req.url!.split('?')[1]);
    } catch (error) {
      const message = (error as Error)?.message || String(error);
      return { error: restErrorOutcome([createGraphQLError(message, { extensions: { http: { status: 400 } } })], scope, logger) };
    }
    try {
      const context = requestContext(services, scope, req.headers.authorization ?? null);
      const result = await op.compiled.query(undefined, context, variables);
      if (result.errors) {
        const errors = masking ? result.errors.map((e) => masking.maskError(e, masking.errorMessage)) : result.errors;
        return { error: restErrorOutcome(errors, scope, logger) };
      }
      // The same value Sofa's Response.json serialises; a value rendered once per version (immutableJson) is reused.
      return { body: renderJson(result.data?.[op.fieldName]), scope };
    } catch (error) {
      return { error: restErrorOutcome([error], scope, logger) };
    }
  }

  private writeError(res: ServerResponse, requestId: string, security: HeaderList, outcome: ErrorOutcome, extra: Record<string, string>): void {
    setHeaders(res, security);
    const body = JSON.stringify(outcome.body);
    res.writeHead(outcome.status, { 'x-request-id': requestId, ...errorHeaders(outcome.headers), 'content-length': Buffer.byteLength(body), ...extra });
    res.end(body);
  }
}

/** The security headers followed by a record's, as one list for writeHead. */
function headerList(security: HeaderList, record: Record<string, string>): string[] {
  const list = security.slice();
  for (const name in record) list.push(name, record[name]!);
  return list;
}

/** The public plane's CORS answer (as Yoga's corsPolicy gives it): only for requests with an Origin. */
function corsHeaders(req: IncomingMessage): Record<string, string> {
  if (req.headers.origin === undefined) return {};
  const headers = getCORSHeadersByRequestAndOptions({ headers: { get: (name: string) => headerValue(req, name) } } as Request, PUBLIC_CORS);
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) lower[name.toLowerCase()] = value;
  return lower;
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}
