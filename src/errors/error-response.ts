import { Response } from '@whatwg-node/fetch';
import { STATUS_CODES } from 'node:http';
import type { GatewayErrorOptions } from './gateway-error.js';

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

export function errorResponse(status: number, code: string, message: string, requestId: string | undefined, options: GatewayErrorOptions = {}): ErrorResponse {
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

/** Headers of every error response: JSON, never stored by caches, plus the caller's extras. */
export function errorHeaders(headers: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers };
}

export function errorJson(status: number, body: ErrorResponse, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: errorHeaders(headers) });
}
