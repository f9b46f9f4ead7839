import { APPROVAL_STATES, EXECUTION_STATES, type Approval, type Execution } from '../../src/execution/execution-types.js';
import type { ListPosition, RecordFilter } from '../../src/execution/record-listing.js';
import type { RecordPage } from '../../src/execution/account-records.js';
import { invalidParameter } from '../../src/errors/error-factories.js';
import { freshnessOf } from '../../src/domain/freshness.js';
import { isRfc3339 } from '../../src/domain/rfc3339.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';
import { principalOf } from './principal.js';

/** Bounds of `limit` on the account lists. */
export const RECORD_LIST_LIMIT = { min: 1, max: 100, default: 25 } as const;
export const INVALID_LIST_QUERY = 'invalid_list_query';

export interface RecordListArgs {
  limit?: number | null;
  cursor?: string | null;
  state?: string | null;
  protocol?: string | null;
  referenceId?: string | null;
  from?: string | null;
  to?: string | null;
}

export interface ExecutionList {
  executions: Execution[];
  nextCursor: string | null;
}
export interface ApprovalList {
  approvals: Approval[];
  nextCursor: string | null;
}

function time(name: string, value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isRfc3339(value)) throw invalidParameter(INVALID_LIST_QUERY, name, `'${name}' must be an RFC 3339 date-time.`);
  return Date.parse(value);
}

/** The filter and position of a list request; the cursor is bound to its list. */
function query(ctx: GatewayContext, list: string, states: readonly string[], a: RecordListArgs) {
  const limit = a.limit ?? RECORD_LIST_LIMIT.default;
  if (!Number.isInteger(limit) || limit < RECORD_LIST_LIMIT.min || limit > RECORD_LIST_LIMIT.max)
    throw invalidParameter(INVALID_LIST_QUERY, 'limit', `'limit' must be an integer from ${RECORD_LIST_LIMIT.min} to ${RECORD_LIST_LIMIT.max}.`);
  if (a.state && !states.includes(a.state)) throw invalidParameter(INVALID_LIST_QUERY, 'state', `'state' must be one of ${states.join(', ')}.`);
  const protocols = ctx.services.protocols.publicProtocols().map((p) => p.id);
  if (a.protocol && !protocols.includes(a.protocol))
    throw invalidParameter(INVALID_LIST_QUERY, 'protocol', `'protocol' must be one of ${protocols.join(', ')} (GET /api/v1/capabilities).`);
  const filter: RecordFilter = {};
  if (a.state) filter.state = a.state;
  if (a.protocol) filter.protocol = a.protocol;
  if (a.referenceId) filter.referencePrefix = a.referenceId;
  const from = time('from', a.from);
  const to = time('to', a.to);
  if (from !== undefined) filter.from = from;
  if (to !== undefined) filter.to = to;
  const after = a.cursor ? ctx.services.cursors.decode<ListPosition>(list, a.cursor) : undefined;
  return { filter, limit, after };
}

function envelope<T>(ctx: GatewayContext, data: T): PublicEnvelope<T> {
  const now = ctx.services.clock.now();
  // Read from the account's own records, as they are now.
  return publicEnvelope(data, freshnessOf(now, 'healthy', Number.POSITIVE_INFINITY, now), now);
}

const nextCursor = (ctx: GatewayContext, list: string, page: RecordPage<unknown>) => (page.next ? ctx.services.cursors.encode(list, page.next) : null);

export async function executionListEnvelope(ctx: GatewayContext, a: RecordListArgs): Promise<PublicEnvelope<ExecutionList>> {
  const account = (await principalOf(ctx)).account.id;
  const { filter, limit, after } = query(ctx, 'executions', EXECUTION_STATES, a);
  const page = await ctx.services.execution.records.executions(account, filter, limit, after);
  return envelope(ctx, { executions: page.items, nextCursor: nextCursor(ctx, 'executions', page) });
}

export async function approvalListEnvelope(ctx: GatewayContext, a: RecordListArgs): Promise<PublicEnvelope<ApprovalList>> {
  const account = (await principalOf(ctx)).account.id;
  const { filter, limit, after } = query(ctx, 'approvals', APPROVAL_STATES, a);
  const page = await ctx.services.execution.records.approvals(account, filter, limit, after);
  return envelope(ctx, { approvals: page.items, nextCursor: nextCursor(ctx, 'approvals', page) });
}
