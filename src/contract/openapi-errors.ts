import { GATE_STATUS } from '../errors/gate-refusals.js';
import type { RouteSpec } from './route-spec.js';

type JsonSchema = Record<string, unknown>;
const REF = '#/components/schemas/';

/** Headers every response carries, declared once under components.headers. */
export const RESPONSE_HEADERS: Record<string, JsonSchema> = {
  RateLimit: {
    description: 'Remaining requests and seconds to the window reset, e.g. `"public";r=599;t=60` (draft-ietf-httpapi-ratelimit-headers).',
    schema: { type: 'string' },
  },
  RateLimitPolicy: { description: 'The quota applied, e.g. `"public";q=600;w=60`.', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  RequestId: { description: 'The request id, also in the error body as requestId.', schema: { type: 'string' } },
  IdempotentReplayed: {
    description: '`true` when the answer replays a recorded execution for the same referenceId and body.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function commonHeaders(): Record<string, unknown> {
  return { RateLimit: ref('RateLimit'), 'RateLimit-Policy': ref('RateLimitPolicy'), 'x-request-id': ref('RequestId') };
}

export { ref as headerRef };

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: a parameter or body field is wrong (details.field or details.parameter names it).',
  401: 'Authentication required, or the credential is missing, malformed, unknown, revoked or lacks the scope.',
  403: 'A scope, policy, regulatory, certification or approval gate denied the request.',
  404: 'Not found.',
  409: 'Idempotency or state conflict.',
  413: 'The request body is over the limit; the connection is closed after the answer.',
  415: 'The body is not JSON (Content-Type: application/json), or is compressed (send it uncompressed).',
  429: 'Rate limited; back off and retry after the rate-limit window (Retry-After).',
  503: 'Unavailable: shared state (Redis mode) or an upstream source cannot be reached; retry with jitter.',
};

const gateCodes = (status: number) =>
  Object.entries(GATE_STATUS)
    .filter(([, s]) => s === status)
    .map(([code]) => code);

/**
 * The error codes an operation can answer with, per status. Statuses every route can return
 * (401 on authenticated routes, 429, 503 in Redis mode) are added to those the row declares.
 */
export function errorCodesOf(route: RouteSpec): Map<number, string[]> {
  const codes = new Map<number, Set<string>>();
  const add = (status: number, ...cs: string[]) => {
    const set = codes.get(status) ?? new Set<string>();
    for (const c of cs) set.add(c);
    codes.set(status, set);
  };
  const isPublic = route.visibility === 'public';
  add(400, route.invalidInputCode ?? 'invalid_request');
  // The spec has every public operation declare 401, 403 and 409 too; they carry no code of their own there.
  if (isPublic) {
    add(401);
    add(403);
    add(409);
  } else if (route.security === 'none') add(401, 'wallet_signature_invalid');
  else
    add(
      401,
      'unauthenticated',
      ...(route.scopes.length > 0 ? ['insufficient_scope'] : []),
      ...(route.security === 'wallet_session' ? ['wallet_session_required'] : []),
    );
  if (route.workflow === 'execute') {
    add(403, ...gateCodes(403));
    add(409, ...gateCodes(409));
    add(503, ...gateCodes(503));
  }
  if (route.workflow === 'preview') add(409, 'IDEMPOTENCY_CONFLICT');
  if (route.workflow === 'approval' || route.operationId === 'activateAgentSession') add(403, 'POLICY_DENIED');
  if (route.operationId === 'decideApproval') {
    add(401, 'wallet_signature_invalid');
    add(409, 'approval_not_pending');
  }
  // Every route with a body: over the limit, or not JSON, or compressed (so none can expand past the limit).
  if (route.method !== 'GET') {
    add(413, 'payload_too_large');
    add(415, 'unsupported_media_type', 'unsupported_content_encoding');
  }
  add(429, 'rate_limited');
  add(503, 'shared_state_unavailable');
  for (const [status, spec] of Object.entries(route.errors ?? {})) {
    if (spec && !spec.envelope) add(Number(status), ...(spec.code ? [spec.code] : []));
  }
  return new Map([...codes].sort(([a], [b]) => a - b).map(([s, set]) => [s, [...set]]));
}

/** An error response whose `code` is the operation's closed set for that status. */
export function errorResponseOf(route: RouteSpec, status: number, codes: readonly string[]): Record<string, unknown> {
  const spec = route.errors?.[status];
  const description = spec && !spec.envelope ? spec.description : (STATUS_TEXT[status] ?? 'Error.');
  const schema =
    codes.length === 0
      ? { $ref: `${REF}ErrorResponse` }
      : { allOf: [{ $ref: `${REF}ErrorResponse` }, { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: [...codes] } } }] };
  const headers: Record<string, unknown> = { ...commonHeaders() };
  if (status === 429 || status === 503) headers['Retry-After'] = ref('RetryAfter');
  return { description: codes.length > 0 ? `${description} Codes: ${codes.join(', ')}.` : description, headers, content: { 'application/json': { schema } } };
}
