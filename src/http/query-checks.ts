import { errorResponse } from '../errors/error-response.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { errorOutcome, type ErrorOutcome } from './error-outcome.js';

const INTEGER = /^-?\d{1,15}$/;

/**
 * The contract's checks of a route's query parameters, before Sofa or the public fast path reads
 * them: Sofa coerces integers before any resolver runs and reads an empty value as absent.
 */
export function queryRejection(route: RouteSpec, query: URLSearchParams, requestId: string | undefined): ErrorOutcome | undefined {
  const problem = queryProblem(route, query);
  if (!problem) return undefined;
  const code = route.invalidInputCode ?? 'invalid_request';
  return errorOutcome(400, errorResponse(400, code, problem.message, requestId, { details: { parameter: problem.parameter }, retryable: false }));
}

function queryProblem(route: RouteSpec, query: URLSearchParams): { parameter: string; message: string } | undefined {
  for (const [name, spec] of Object.entries(route.queryParams ?? {})) {
    const values = query.getAll(name);
    if (values.length > 1) return { parameter: name, message: `'${name}' is given more than once.` };
    const value = values[0];
    // Sofa reads an empty value as absent, which would silently apply the default.
    if (value === '') return { parameter: name, message: `'${name}' must not be empty; omit it to use the default.` };
    if (value !== undefined && spec.type === 'integer' && !INTEGER.test(value)) {
      return { parameter: name, message: `'${name}' must be an integer from ${spec.minimum} to ${spec.maximum}.` };
    }
  }
  return undefined;
}
