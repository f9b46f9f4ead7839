import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';

/** A body field (or argument) the client got wrong: 400 naming it, in the client's terms. */
export function invalidField(field: string, problem: string, code = 'invalid_request'): GatewayError {
  return new GatewayError(400, code, `'${field}' ${problem}`, { details: { field }, retryable: false });
}

/** A query parameter the client got wrong: 400 with the route's own code (history, funding history). */
export function invalidParameter(code: string, parameter: string, message: string): GatewayError {
  return new GatewayError(400, code, message, { details: { parameter }, retryable: false });
}

/** A cursor this gateway did not issue for this list (or for another market or account). */
export function invalidCursor(parameter: string, message: string, code = 'invalid_cursor'): GatewayError {
  return invalidParameter(code, parameter, message);
}

/** A body that is not JSON, or not the JSON object the route takes. */
export function invalidBodyShape(message: string, code = 'invalid_request', field?: string): GatewayError {
  return new GatewayError(400, code, message, { ...(field ? { details: { field } } : {}), retryable: false });
}

/** A path parameter that is not valid percent-encoding: the route's own 400. */
export function invalidPathEncoding(code = 'invalid_request'): GatewayError {
  return new GatewayError(400, code, 'The path is not valid percent-encoding.', { retryable: false });
}

/** Something the caller named does not exist for it (an id of another account reads the same). */
export function notFound(code: string, message: string, options: Omit<GatewayErrorOptions, 'retryable'> = {}): GatewayError {
  return new GatewayError(404, code, message, { ...options, retryable: false });
}

/** No route has this path (or this path is no file of the dashboard). */
export function routeNotFound(message: string, nextAction?: string): GatewayError {
  return notFound('route_not_found', message, nextAction ? { nextAction } : {});
}

/** A known path asked with a method it does not serve. */
export function methodNotAllowed(method: string, path: string, allow: readonly string[]): GatewayError {
  return new GatewayError(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allow.join(', ')}.`, {
    retryable: false,
    headers: { allow: allow.join(', ') },
  });
}

/** A request that conflicts with the state of what it names (an approval no longer pending). */
export function conflict(code: string, message: string, options: Omit<GatewayErrorOptions, 'retryable'> = {}): GatewayError {
  return new GatewayError(409, code, message, { ...options, retryable: false });
}

/** A GraphQL request accepting none of the media types GraphQL answers in. */
export function notAcceptable(): GatewayError {
  return new GatewayError(406, 'not_acceptable', 'GraphQL answers are JSON or an event stream: accept application/json.', { retryable: false });
}

/** A body sent as anything but JSON. */
export function unsupportedMediaType(): GatewayError {
  return new GatewayError(415, 'unsupported_media_type', 'The request body must be JSON: send Content-Type: application/json.', {
    retryable: false,
    headers: { accept: 'application/json' },
  });
}

/** A compressed body: refused, so no body can expand past the limit. */
export function unsupportedContentEncoding(encoding: string): GatewayError {
  return new GatewayError(415, 'unsupported_content_encoding', `Content-Encoding ${encoding} is not supported; send the body uncompressed.`, {
    retryable: false,
    headers: { 'accept-encoding': 'identity' },
  });
}

/** A body over the limit; the connection is closed after the answer (the rest is not read). */
export function payloadTooLarge(maxBytes: number): GatewayError {
  return new GatewayError(413, 'payload_too_large', `The request body is over the limit of ${maxBytes} bytes.`, {
    retryable: false,
    headers: { connection: 'close' },
  });
}

/** What node's HTTP parser refused before any route saw the request. */
export function unreadableRequest(parserCode: string | undefined): GatewayError {
  if (parserCode === 'HPE_HEADER_OVERFLOW')
    return new GatewayError(431, 'request_header_too_large', 'The request head is over the server limit.', { retryable: false });
  if (parserCode === 'HPE_INVALID_METHOD')
    return new GatewayError(501, 'method_not_implemented', 'The request method is not one this server implements.', { retryable: false });
  return new GatewayError(400, 'invalid_request', 'The request could not be read as HTTP.', { retryable: false });
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
