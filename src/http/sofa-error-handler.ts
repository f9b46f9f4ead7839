import type { Logger } from 'pino';
import { errorResponse } from '../errors/error-response.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { errorOutcome, errorOutcomeResponse, type ErrorOutcome } from './error-outcome.js';
import { currentScope, type RequestScope } from './request-scope.js';

/**
 * Turns what Sofa collected into the spec's error response. Only chosen fields are copied:
 * never `extensions`, stacks or paths. Unexpected errors are logged and masked as 500.
 */
export function sofaErrorHandler(logger: Logger) {
  return (errors: readonly unknown[]): Response => errorOutcomeResponse(restErrorOutcome(errors, currentScope(), logger));
}

/** The error response for a REST route's GraphQL errors; Sofa's handler and the public fast path share it. */
export function restErrorOutcome(errors: readonly unknown[], scope: RequestScope | undefined, logger: Logger): ErrorOutcome {
  const requestId = scope?.requestId;
  const first = errors[0] as { message?: string; originalError?: unknown; extensions?: { http?: { status?: number } } } | undefined;
  const gateway = [first, first?.originalError].find(isGatewayError);
  if (gateway) {
    const headers: Record<string, string> = gateway.options.retryAfter !== undefined ? { 'retry-after': String(gateway.options.retryAfter) } : {};
    // RFC 6750: say which bearer problem it is.
    if (gateway.status === 401)
      headers['www-authenticate'] = `Bearer realm="gateway", error="${gateway.code === 'insufficient_scope' ? 'insufficient_scope' : 'invalid_token'}"`;
    return errorOutcome(gateway.status, errorResponse(gateway.status, gateway.code, gateway.message, requestId, gateway.options), headers);
  }
  const status = first?.extensions?.http?.status;
  if (status !== undefined && status >= 400 && status < 500) {
    // Sofa's own input errors (bad JSON body, uncoercible variable).
    const code = scope?.route?.invalidInputCode ?? 'invalid_request';
    return errorOutcome(status, errorResponse(status, code, clientWording(first?.message), requestId, { retryable: false }));
  }
  if (first?.message?.startsWith('Variable "$')) {
    const code = scope?.route?.invalidInputCode ?? 'invalid_request';
    return errorOutcome(400, errorResponse(400, code, clientWording(first.message), requestId, { retryable: false }));
  }
  logger.error({ err: first?.originalError ?? first, requestId, route: scope?.route?.operationId }, 'unexpected error on a REST route');
  return errorOutcome(500, errorResponse(500, 'internal_error', 'Unexpected error.', requestId, { retryable: true }));
}

/**
 * A REST client's terms for what Sofa or graphql-js said (the strict body check answers most bad
 * bodies first): never `Variable "$x"`, GraphQL type names or JavaScript runtime messages.
 */
function clientWording(message: string | undefined): string {
  const missing = message && /^Variable "\$(\w+)" of required type "[^"]*" was not provided\.$/.exec(message);
  if (missing) return `'${missing[1]}' is required.`;
  const invalid = message && /^Variable "\$(\w+)" got invalid value/.exec(message);
  if (invalid) return `'${invalid[1]}' is not valid for this request.`;
  if (!message || /Variable|"\$|[A-Za-z]!|Cannot read|undefined|null \(|JSON|Unexpected token/.test(message)) return 'The request is not valid for this route.';
  return message;
}
