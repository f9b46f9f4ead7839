import { errorJson, type ErrorResponse } from '../errors/error-response.js';

/**
 * A REST error decided but not yet sent: Yoga's plugins turn it into a Response, the public fast
 * path writes it straight to node:http. One decision, two ways out.
 */
export interface ErrorOutcome {
  status: number;
  body: ErrorResponse;
  /** Headers beyond the error response's own content-type and cache-control. */
  headers: Record<string, string>;
}

export function errorOutcome(status: number, body: ErrorResponse, headers: Record<string, string> = {}): ErrorOutcome {
  return { status, body, headers };
}

export function errorOutcomeResponse(outcome: ErrorOutcome): Response {
  return errorJson(outcome.status, outcome.body, outcome.headers);
}
