import { STATUS_CODES } from 'node:http';
import type { GatewayError } from './gateway-error.js';

/** Spec: Error response. Fields are picked one by one so nothing internal leaks. */
export interface ErrorResponse {
  error: string;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  retryAfter?: number;
  requestId?: string;
  retryable: boolean;
  nextAction?: string | Record<string, unknown>;
}

/** The error response of a refusal, with the request's id: the one place the spec's body is written. */
export function errorBodyOf(error: GatewayError, requestId: string | undefined): ErrorResponse {
  const { status, code, message, options } = error;
  return {
    error: STATUS_CODES[status] ?? 'Error',
    code,
    message,
    ...(options.details ? { details: options.details } : {}),
    ...(options.retryAfter !== undefined ? { retryAfter: options.retryAfter } : {}),
    ...(requestId ? { requestId } : {}),
    retryable: options.retryable ?? (status === 429 || status >= 500),
    ...(options.nextAction !== undefined ? { nextAction: options.nextAction } : {}),
  };
}

/**
 * The headers of a refusal: JSON, never stored by caches, Retry-After when it says when, the
 * RFC 6750 bearer challenge on a 401, and its own (Allow, Accept, Connection).
 */
export function errorHeadersOf(error: GatewayError): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  if (error.options.retryAfter !== undefined) headers['retry-after'] = String(error.options.retryAfter);
  if (error.status === 401)
    headers['www-authenticate'] = `Bearer realm="gateway", error="${error.code === 'insufficient_scope' ? 'insufficient_scope' : 'invalid_token'}"`;
  return Object.assign(headers, error.options.headers);
}
