import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';

/** A body field (or argument) the client got wrong: 400 naming it, in the client's terms. */
export function invalidField(field: string, problem: string, code = 'invalid_request'): GatewayError {
  return new GatewayError(400, code, `'${field}' ${problem}`, { details: { field }, retryable: false });
}

/** A query parameter the client got wrong: 400 with the route's own code (history, funding history). */
export function invalidParameter(code: string, parameter: string, message: string): GatewayError {
  return new GatewayError(400, code, message, { details: { parameter }, retryable: false });
}

/** Something the caller named does not exist for it (an id of another account reads the same). */
export function notFound(code: string, message: string, options: Omit<GatewayErrorOptions, 'retryable'> = {}): GatewayError {
  return new GatewayError(404, code, message, { ...options, retryable: false });
}

/** A request that conflicts with the state of what it names (an approval no longer pending). */
export function conflict(code: string, message: string, options: Omit<GatewayErrorOptions, 'retryable'> = {}): GatewayError {
  return new GatewayError(409, code, message, { ...options, retryable: false });
}

/** The first problem zod found in a body, as a 400 naming the field (`assetIn.amount`) or the unknown one. */
export function invalidBody(error: {
  issues: readonly { code: string; path: readonly PropertyKey[]; message: string; keys?: readonly string[] }[];
}): GatewayError {
  const issue = error.issues[0]!;
  const at = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const fields = (issue.keys ?? []).map((k) => (at ? `${at}.${k}` : k)).join(', ');
    return new GatewayError(400, 'invalid_request', `unknown field ${fields}`, { details: { field: fields }, retryable: false });
  }
  return invalidField(at || 'body', issue.message);
}
