import type { Plugin } from 'graphql-yoga';

/**
 * No library internals in GraphQL answers: Yoga puts the parser's own error (`originalError`:
 * name and JavaScript message) into `extensions` of a malformed request's error; it is removed,
 * and such a request is answered 400 whatever its Accept header.
 */
export function useCleanErrors(): Plugin {
  return {
    onResultProcess({ result }) {
      for (const one of Array.isArray(result) ? result : [result]) {
        for (const e of (one as { errors?: readonly { extensions?: Record<string, unknown> }[] }).errors ?? []) {
          if (!e.extensions) continue;
          if ('originalError' in e.extensions) delete e.extensions.originalError;
          // A request that is not GraphQL at all (malformed JSON, no query) is a 400 on every media type.
          const http = e.extensions.http as { spec?: boolean } | undefined;
          if (e.extensions.code === 'BAD_REQUEST' && http?.spec) delete http.spec;
        }
      }
    },
  };
}
