import type { GraphQLSchema } from 'graphql';
import { mapMaybePromise, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { createSofaRouter, createSofa } from 'sofa-api';
import { restSchemaOf } from './rest-schema.js';
import type { ContractDocuments } from '../contract/contract-documents.js';
import { ROUTES, sofaPath } from '../contract/route-registry.js';
import { finishHead } from './finish-head.js';
import { currentScope, type RequestScope } from './request-scope.js';
import { answerKey, type RenderedAnswer, type RenderedAnswers } from './rendered-answers.js';
import { answerHeaders, NOT_MODIFIED_VARY, type AnswerEncoder } from './answer-encoding.js';
import { sofaErrorHandler } from './sofa-error-handler.js';
import { DECIMAL_PATTERN } from '../domain/validators.js';

/** Sofa's route table, derived from the registry: one row per contract route. */
export function sofaRoutes(): Record<string, { method: (typeof ROUTES)[number]['method']; path: string; tags: string[]; description: string }> {
  return Object.fromEntries(ROUTES.map((r) => [r.field, { method: r.method, path: sofaPath(r), tags: [r.visibility], description: r.summary }]));
}

/** Sofa's configuration as built for the current schema: its schema, models, ignore list and depth limit. */
export type GatewaySofa = ReturnType<typeof createSofa>;

export interface SofaRoutesOptions {
  contract: ContractDocuments;
  logger: Logger;
  /** Answers rendered once per snapshot version, shared with the public fast path. */
  answers: RenderedAnswers;
  /** br/gzip of public answers, shared with the public fast path. */
  encoder: AnswerEncoder;
}

/**
 * Serves the contract's REST routes through Sofa, executing through Yoga's envelop (so jit and
 * context apply), and finishes each response: envelope status, Cache-Control, ETag and 304.
 * Unlike the stock plugin it keeps Sofa's OpenAPI output for the contract documents and turns off
 * Sofa's Swagger UI.
 */
export function useSofaRoutes(options: SofaRoutesOptions): Plugin & { currentSofa(): GatewaySofa | undefined } {
  let router: ReturnType<typeof createSofaRouter> | undefined;
  let built: GatewaySofa | undefined;
  let getEnveloped: Parameters<NonNullable<Plugin['onYogaInit']>>[0]['yoga']['getEnveloped'];
  const envelopedByContext = new WeakMap<object, ReturnType<typeof getEnveloped>>();

  const build = (fullSchema: GraphQLSchema) => {
    const schema = restSchemaOf(fullSchema);
    const sofa = createSofa({
      schema,
      basePath: '/api',
      routes: sofaRoutes(),
      // fets collects paths only while its document route exists; the contract guard keeps it unreachable.
      openAPI: { endpoint: '/openapi.json', info: { title: 'Trading Gateway', version: '1.0.0' } },
      swaggerUI: { endpoint: false },
      customScalars: {
        DateTime: { type: 'string', format: 'date-time' },
        Decimal: { type: 'string', pattern: DECIMAL_PATTERN.source },
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
    built = sofa;
    options.contract.update(router.openAPIDocument as never, schema);
  };

  return {
    /** The public fast path builds its operations from the same Sofa configuration. */
    currentSofa: () => built,
    onYogaInit({ yoga }) {
      getEnveloped = yoga.getEnveloped;
    },
    onSchemaChange({ schema }) {
      build(schema);
    },
    onRequest({ request, serverContext, url, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith('/api/') || !router) return;
      const scope = currentScope();
      const answering = scope?.route && isPublicGet(scope, request) ? { scope, key: answerKey(scope.route, url.pathname, url.searchParams) } : undefined;
      // The same URL answered at the same snapshot version: the remembered body, re-timed (RenderedAnswers), as on the fast path.
      const rendered = answering && options.answers.answer(answering.key);
      if (rendered && answering) {
        Object.assign(answering.scope, rendered.scope);
        const response = new fetchAPI.Response(rendered.body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
        return mapMaybePromise(finish(request, response, fetchAPI, options, answering.key, false, rendered), endResponse);
      }
      return mapMaybePromise(router.handle(request, serverContext as never), (response) => {
        if (response) return mapMaybePromise(finish(request, response as Response, fetchAPI, options, answering?.key, !rendered), endResponse);
      });
    },
    onResponse({ request, response }) {
      // Yoga's CORS sets `Vary: Origin` over the answer's own Vary: keep Accept-Encoding in it.
      if (!NEGOTIATED.has(request)) return;
      const vary = response.headers.get('vary');
      if (!vary) response.headers.set('vary', 'Accept-Encoding');
      else if (!/accept-encoding/i.test(vary)) response.headers.set('vary', `${vary}, Accept-Encoding`);
    },
  };
}

/** Public GET requests whose answer was negotiated (AnswerEncoder). */
const NEGOTIATED = new WeakSet<Request>();

function isPublicGet(scope: RequestScope, request: Request): boolean {
  return scope.route?.visibility === 'public' && scope.route.method === 'GET' && request.method === 'GET';
}

/**
 * Envelope status, Cache-Control, resolver headers, ETag and 304 on a 2xx answer (see finishHead),
 * and for a public GET its br/gzip encoding (AnswerEncoder), after remembering an executed body
 * for its snapshot version (RenderedAnswers), as the public fast path does.
 * Headers are set on Sofa's response itself and a changed body or status rebuilds it from its text, so the
 * body stays a string or bytes the server adapter writes in one call, never a stream piped to the socket.
 */
function finish(
  request: Request,
  response: Response,
  fetchAPI: { Response: typeof Response; Headers: typeof Headers },
  options: SofaRoutesOptions,
  key: string | undefined,
  executed = false,
  /** The remembered answer `response` was made from: its body is taken as it is, and its encodings are reused. */
  rendered?: RenderedAnswer,
): Response | Promise<Response> {
  const { Response, Headers } = fetchAPI;
  const scope = currentScope();
  const route = scope?.route;
  if (!scope || !route || response.status >= 400) return response;
  if (key === undefined) {
    const head = finishHead(route, scope, response.status, request.headers.get('if-none-match'));
    if (head.notModified) return notModified(response, head.headers, Response, Headers);
    for (const [name, value] of Object.entries(head.headers)) response.headers.set(name, value);
    if (head.status === response.status) return response;
    return response.text().then((body) => new Response(body, { status: head.status, headers: response.headers }));
  }
  NEGOTIATED.add(request);
  return (rendered ? Promise.resolve(rendered.body) : response.text()).then((body) => {
    if (executed) options.answers.remember(key, body, scope);
    const head = finishHead(route, scope, response.status, request.headers.get('if-none-match'));
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    if (head.notModified) {
      // Compressing happens only for an answer that is sent.
      const answer = answerHeaders(headers, head.headers, NOT_MODIFIED_VARY);
      for (const name of ['content-length', 'content-encoding', 'content-type']) delete answer[name];
      return new Response(null, { status: 304, headers: answer });
    }
    const encoded = options.encoder.encode(body, request.headers.get('accept-encoding'), rendered?.encodings);
    const answer = answerHeaders(headers, head.headers, encoded.headers);
    delete answer['content-length'];
    return new Response(encoded.body as BodyInit, { status: head.status, headers: answer });
  });
}

function notModified(response: Response, extra: Record<string, string>, Response: typeof globalThis.Response, Headers: typeof globalThis.Headers): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  headers.delete('content-type');
  headers.delete('content-length');
  return new Response(null, { status: 304, headers });
}
