/**
 * Packages whose unexported behaviour the public fast path (and the graphql-ws direct lane) restates, and the exact versions it was
 * copied from. package.json pins each to this version (no range), and a test fails when the
 * installed version or the pin moves: re-read the package's source before raising either.
 */
export const COPIED_INTERNALS = {
  /** sofa-operation.ts: `createQueryRoute`'s document options, `useHandler`/`pickParam`/`parseVariable` (GET variables). */
  'sofa-api': '0.18.10',
  /** app.ts `yogaMasking` (the instance's `maskedErrorsOpts`) and how its envelop plugin masks execution errors. */
  'graphql-yoga': '5.24.1',
  /** public-fast-path.ts `corsHeaders`: Yoga's default CORS answer through `getCORSHeadersByRequestAndOptions`. */
  '@whatwg-node/server': '0.11.0',
  /** ws-next-frames.ts: a WebSocket's `_socket` and its sender's `_bufferedBytes` (nothing queued in ws before a direct write). */
  ws: '8.23.0',
} as const;
