import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useCleanErrors } from '../src/http/graphql/use-clean-errors.js';

/** Runs the plugin's result hook on one result, as Yoga does before serialising it. */
function processed(result: Record<string, unknown>): Record<string, unknown> {
  const hook = useCleanErrors().onResultProcess as (payload: { result: unknown }) => void;
  hook({ result });
  return result;
}

describe('useCleanErrors on results Yoga is about to send', () => {
  it('a server failure before execution keeps its 5xx wording and status (no invalid_request)', () => {
    const result = processed({ errors: [new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true } })] });
    const [e] = result.errors as GraphQLError[];
    expect(e!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(result.extensions).toBeUndefined();
  });

  it('a copied error keeps the headers of its status on the result', () => {
    const error = new GraphQLError('Too many requests.', {
      extensions: { code: 'rate_limited', originalError: { message: 'internal' }, http: { status: 429, headers: { 'retry-after': '5' } } },
    });
    const result = processed({ data: null, errors: [error] });
    const [e] = result.errors as { extensions: Record<string, unknown> }[];
    expect(e!.extensions).toEqual({ code: 'rate_limited' });
    expect(result.extensions).toEqual({ http: { status: 429, headers: { 'retry-after': '5' } } });
  });

  it('a variable that does not coerce: 400, invalid_request, not retryable', () => {
    const result = processed({ errors: [new GraphQLError('Variable "$s" got invalid value 5.')] });
    const [e] = result.errors as { extensions: Record<string, unknown> }[];
    expect(e!.extensions).toEqual({ code: 'invalid_request', retryable: false });
    expect(result.extensions).toEqual({ http: { status: 400, headers: {} } });
  });
});
