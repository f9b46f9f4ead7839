import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** graphql-js's words for a value that does not coerce (ValuesOfCorrectTypeRule, scalar and enum parsing, variable coercion). */
const BAD_VALUE =
  /cannot represent|does not exist in "\w+" enum|^Expected value of type|^Variable "\$\w+" got invalid value|of required type "[^"]*" was not provided|is not defined by type|must be a decimal string|must be an RFC 3339/;

interface Http {
  status?: number;
  spec?: boolean;
  headers?: Record<string, string>;
}

/**
 * GraphQL answers in the gateway's terms:
 * - no library internals: Yoga puts the parser's own error (`originalError`: name and JavaScript
 *   message) into `extensions` of a malformed request's error; it is removed;
 * - a request that never ran (malformed, invalid against the schema, variables that do not coerce:
 *   a result without `data`) is a 400 whatever the Accept header, and every error of it has a code
 *   and says it is not retryable: `invalid_request` for a value of the wrong type or outside its
 *   enum, in a variable or a literal (the gateway's code for bad input, as on REST), Yoga's
 *   `GRAPHQL_VALIDATION_FAILED` for any other invalid document. Yoga would answer 200 to
 *   `application/json` and, for variables, to every media type.
 * A refusal with a status of its own (401, 413, 429…) keeps it.
 */
export function useCleanErrors(): Plugin {
  return {
    onResultProcess({ result }) {
      for (const one of Array.isArray(result) ? result : [result]) {
        const answer = one as { errors?: readonly GraphQLError[]; extensions?: Record<string, unknown> };
        if (!answer.errors?.length) continue;
        // A request that never ran for a reason of the client's (a server failure before execution,
        // which Yoga marks unexpected, keeps its 5xx and wording).
        const neverRan = !('data' in answer) && !answer.errors.some((e) => e.extensions?.unexpected || e.extensions?.code === 'INTERNAL_SERVER_ERROR');
        // A refusal with a status of its own keeps it (the highest, as Yoga does); any other never-ran request is a 400.
        const own = answer.errors.map((e) => e.extensions?.http as Http | undefined).filter((h) => h?.status !== undefined && !h.spec);
        const status = Math.max(400, ...own.map((h) => h!.status!));
        const headers: Record<string, string> = {};
        answer.errors = answer.errors.map((e) => {
          const badValue = neverRan && BAD_VALUE.test(e.message);
          const needsCode = neverRan && (badValue || e.extensions?.code === undefined || e.extensions.retryable === undefined);
          if (!needsCode && !(e.extensions && 'originalError' in e.extensions)) return e;
          const { originalError: _internal, http, ...extensions } = { ...e.extensions };
          Object.assign(headers, (http as Http | undefined)?.headers);
          if (neverRan) {
            if (badValue) extensions.code = 'invalid_request';
            extensions.code ??= 'invalid_request';
            extensions.retryable ??= false;
          }
          // The formatted error (message, locations, path), not a copy of the error object: graphql-jit's
          // are frozen, and Yoga rebuilds GraphQLErrors from their AST nodes, which jit's do not have.
          return { ...(typeof e.toJSON === 'function' ? e.toJSON() : e), extensions } as unknown as GraphQLError;
        });
        // Yoga reads the status (and headers) from the result's extensions first, and strips them from the answer.
        // A copied error no longer carries its `http`: its status and headers move to the result.
        const http = answer.extensions?.http as Http | undefined;
        const resultStatus = neverRan || own.length > 0 ? status : undefined;
        if (resultStatus !== undefined || Object.keys(headers).length > 0)
          answer.extensions = {
            ...answer.extensions,
            http: { ...http, ...(resultStatus ? { status: resultStatus } : {}), headers: { ...headers, ...http?.headers } },
          };
      }
    },
  };
}
