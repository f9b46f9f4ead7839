import { invalidParameter } from '../../src/errors/error-factories.js';
import { isRfc3339 } from '../../src/domain/rfc3339.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';

/** Bounds of `first` on the viewer's connections (as `limit` on the REST lists). */
export const CONNECTION_SIZE = { min: 1, max: 100, default: 25 } as const;
/** The code of a bad connection argument: the REST lists' own. */
export const INVALID_CONNECTION_QUERY = 'invalid_list_query';

export interface ForwardArgs {
  first?: number | null;
  after?: string | null;
}

export interface TimeRangeArgs {
  from?: string | null;
  to?: string | null;
}

/** A Relay connection as @pothos/plugin-relay resolves it. */
export interface ConnectionPage<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

export function pageSize(first: number | null | undefined): number {
  const n = first ?? CONNECTION_SIZE.default;
  if (!Number.isInteger(n) || n < CONNECTION_SIZE.min || n > CONNECTION_SIZE.max)
    throw invalidParameter(INVALID_CONNECTION_QUERY, 'first', `'first' must be an integer from ${CONNECTION_SIZE.min} to ${CONNECTION_SIZE.max}.`);
  return n;
}

/** The position an `after` cursor names, refused (400 invalid_cursor) unless this gateway issued it for this list. */
export function positionAfter<P>(ctx: GatewayContext, list: string, after: string | null | undefined): P | undefined {
  return after ? ctx.services.cursors.decode<P>(list, after, 'after') : undefined;
}

/** `from`/`to` as epoch ms; a range that ends before it starts is refused. */
export function timeRange(a: TimeRangeArgs): { from?: number; to?: number } {
  const at = (name: 'from' | 'to') => {
    const value = a[name];
    if (value === null || value === undefined) return undefined;
    if (!isRfc3339(value)) throw invalidParameter(INVALID_CONNECTION_QUERY, name, `'${name}' must be an RFC 3339 date-time.`);
    return Date.parse(value);
  };
  const from = at('from');
  const to = at('to');
  if (from !== undefined && to !== undefined && from > to) throw invalidParameter(INVALID_CONNECTION_QUERY, 'to', "'to' must not be before 'from'.");
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** A protocol filter must name a protocol of this gateway (a typo would otherwise read as "no records"). */
export function protocolFilter(ctx: GatewayContext, protocol: string | null | undefined): string | undefined {
  if (protocol === null || protocol === undefined) return undefined;
  if (!ctx.services.protocols.get(protocol)) {
    const known = ctx.services.protocols
      .all()
      .filter((p) => p.visibility === 'public')
      .map((p) => p.id)
      .join(', ');
    throw invalidParameter(INVALID_CONNECTION_QUERY, 'protocol', `'protocol' must be one of ${known}.`);
  }
  return protocol;
}

/** The page of `nodes` (newest first), each edge with the opaque cursor of its own position. */
export function connectionPage<T>(nodes: T[], cursorOf: (node: T) => string, more: boolean, continued: boolean): ConnectionPage<T> {
  const edges = nodes.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    pageInfo: { hasNextPage: more, hasPreviousPage: continued, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}
