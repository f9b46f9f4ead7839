// qs (Sofa's query-string parser, hoisted beside sofa-api) ships no types and @types/qs is not a
// dependency: declare only what the public fast path calls.
declare module 'qs' {
  export function parse(str: string | undefined): Record<string, unknown>;
}
