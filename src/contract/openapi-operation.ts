/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI documents are free-form JSON, built here. */
import { commonHeaders, errorCodesOf, errorResponseOf, headerRef } from './openapi-errors.js';
import { examplesOf } from './openapi-examples.js';
import type { RouteSpec } from './route-spec.js';

type JsonSchema = Record<string, any>;
const REF = '#/components/schemas/';

/** Who may call, in words: the start of every operation's description. */
function authSentence(route: RouteSpec): string {
  if (route.visibility === 'public') return 'Public: no authentication.';
  if (route.security === 'none') return 'Public authentication step: no credential needed.';
  if (route.security === 'wallet_session') return 'Needs a wallet session (Bearer tgws_... from sign-in with Ethereum).';
  const scopes = route.scopes.length > 0 ? ` with the scope ${route.scopes.join(', ')}` : '';
  return `Needs a Bearer API key${scopes} (a wallet session also works).`;
}

function description(route: RouteSpec): string {
  const parts = [route.description ?? route.summary, authSentence(route)];
  if (route.maxAgeMs !== null) parts.push(`Data older than ${route.maxAgeMs} ms is answered with freshness.stale true; stale data is not an execution signal.`);
  if (route.idempotent && route.method === 'POST') parts.push('Idempotent by referenceId: the same body again answers the same result.');
  else if (route.idempotent) parts.push('Idempotent: repeating it changes nothing more.');
  return parts.join(' ');
}

/** One operation of a contract document, from its registry row and Sofa's success schema. */
export function operationOf(route: RouteSpec, sofaOp: any, success: JsonSchema): Record<string, unknown> {
  const parameters: any[] = [];
  for (const [name, desc] of Object.entries(route.pathParams ?? {})) {
    parameters.push({ name, in: 'path', required: true, description: desc, schema: { type: 'string', minLength: 1 } });
  }
  for (const [name, spec] of Object.entries(route.queryParams ?? {})) {
    const { description: desc, type, ...rules } = spec;
    parameters.push({ name, in: 'query', required: false, description: desc, schema: { type, ...rules } });
  }
  const hasBody = route.method === 'POST' || route.method === 'PATCH';
  const declared = new Set(parameters.map((p) => `${p.in}:${p.name}`));
  for (const p of sofaOp.parameters ?? []) {
    // Sofa repeats body fields as query parameters; the body is the contract for those routes.
    if (hasBody && p.in === 'query') continue;
    if (!declared.has(`${p.in}:${p.name}`)) throw new Error(`${route.path}: Sofa parameter ${p.in}:${p.name} is missing from the route registry`);
  }
  const bodyFields = Object.keys(sofaOp.requestBody?.content?.['application/json']?.schema?.properties ?? {});
  if (hasBody && bodyFields.length > 0 && !route.requestSchema) throw new Error(`${route.path}: a body route needs a named requestSchema`);
  const examples = examplesOf(route.operationId);
  const requestBody = route.requestSchema
    ? {
        required: true,
        content: { 'application/json': { schema: { $ref: `${REF}${route.requestSchema}` }, ...(examples.request ? { example: examples.request } : {}) } },
      }
    : undefined;

  const headers: Record<string, unknown> = {
    'Cache-Control': {
      schema: { type: 'string' },
      description: route.visibility === 'public' ? 'Cacheable only for what remains of the data max age.' : 'private, no-store',
    },
    ...commonHeaders(),
  };
  if (route.caching === 'etag') headers.ETag = { schema: { type: 'string' }, description: 'Weak validator of the snapshot; send it as If-None-Match.' };
  if (route.workflow === 'execute') headers['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
  const example = (status: number) => (examples.responses[status] !== undefined ? { example: examples.responses[status] } : {});
  const responses: Record<string, unknown> = {
    '200': { description: route.summary, headers, content: { 'application/json': { schema: success, ...example(200) } } },
  };
  if (route.caching === 'etag') responses['304'] = { description: 'Not modified: the snapshot behind the given ETag is current.', headers: commonHeaders() };
  for (const [status, spec] of Object.entries(route.errors ?? {})) {
    if (spec?.envelope)
      responses[status] = {
        description: spec.description,
        headers: commonHeaders(),
        content: { 'application/json': { schema: success, ...example(Number(status)) } },
      };
  }
  for (const [status, codes] of errorCodesOf(route)) {
    if (responses[status]) continue;
    const out = errorResponseOf(route, status, codes) as { content: Record<string, Record<string, unknown>> };
    if (examples.responses[status] !== undefined) out.content['application/json']!.example = examples.responses[status];
    responses[status] = out;
  }
  const isPublic = route.visibility === 'public';
  const security = isPublic || route.security === 'none' ? [] : route.security === 'wallet_session' ? [{ walletSession: [] }] : [{ bearerAuth: [] }];
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: description(route),
    tags: [isPublic ? 'public' : route.security === 'none' ? 'public-auth' : 'authenticated'],
    security,
    ...(isPublic ? {} : { 'x-required-scopes': [...route.scopes] }),
    ...(requestBody ? { requestBody } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
    'x-max-age-ms': route.maxAgeMs,
  };
}
