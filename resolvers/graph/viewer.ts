import type { AgentSession, Approval, AuditEntry, Execution } from '../../src/execution/execution-types.js';
import { isAfter, newestFirst, positionOf, type ListPosition, type RecordFilter } from '../../src/execution/record-listing.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { isActive } from '../execution/agent-sessions.js';
import { principalOf } from '../execution/principal.js';
import {
  connectionPage,
  pageSize,
  positionAfter,
  protocolFilter,
  timeRange,
  type ConnectionPage,
  type ForwardArgs,
  type TimeRangeArgs,
} from './connection-page.js';
import { auditPage } from './viewer-audit.js';

/** The caller's account, as its credential (API key or wallet session) names it. */
export interface Viewer {
  accountId: string;
  wallet: string;
  credential: 'api_key' | 'wallet_session';
  scopes: string[];
}

export async function viewerOf(ctx: GatewayContext): Promise<Viewer> {
  const p = await principalOf(ctx);
  return { accountId: p.account.id, wallet: p.account.wallet, credential: p.kind === 'key' ? 'api_key' : 'wallet_session', scopes: [...p.scopes].sort() };
}

export interface RecordConnectionArgs extends ForwardArgs, TimeRangeArgs {
  state?: string | null;
  protocol?: string | null;
  /** A referenceId prefix. */
  referenceId?: string | null;
}

function recordFilter(ctx: GatewayContext, a: RecordConnectionArgs): RecordFilter {
  const protocol = protocolFilter(ctx, a.protocol);
  return {
    ...(a.state ? { state: a.state } : {}),
    ...(protocol ? { protocol } : {}),
    ...(a.referenceId ? { referencePrefix: a.referenceId } : {}),
    ...timeRange(a),
  };
}

type RecordList = 'executions' | 'approvals';
type PageOf<T> = { items: T[]; next: unknown };

// Cursors are those of the REST lists (same list names and positions): a nextCursor continues here too.
async function recordConnection<T extends Execution | Approval>(
  ctx: GatewayContext,
  a: RecordConnectionArgs,
  list: RecordList,
  read: (filter: RecordFilter, first: number, after: ListPosition | undefined) => Promise<PageOf<T>>,
): Promise<ConnectionPage<T>> {
  const first = pageSize(a.first);
  const filter = recordFilter(ctx, a);
  const after = positionAfter<ListPosition>(ctx, list, a.after);
  const page = await read(filter, first, after);
  return connectionPage(page.items, (r) => ctx.services.cursors.encode(list, positionOf(r)), page.next !== null, after !== undefined);
}

export function viewerExecutions(ctx: GatewayContext, v: Viewer, a: RecordConnectionArgs): Promise<ConnectionPage<Execution>> {
  return recordConnection(ctx, a, 'executions', (filter, first, after) => ctx.services.execution.records.executions(v.accountId, filter, first, after));
}

export function viewerApprovals(ctx: GatewayContext, v: Viewer, a: RecordConnectionArgs): Promise<ConnectionPage<Approval>> {
  return recordConnection(ctx, a, 'approvals', (filter, first, after) => ctx.services.execution.records.approvals(v.accountId, filter, first, after));
}

export interface AgentSessionConnectionArgs extends ForwardArgs, TimeRangeArgs {
  active?: boolean | null;
  protocol?: string | null;
}

/** The account's agent sessions, newest first (an account has few: the store lists them whole). */
export async function viewerAgentSessions(ctx: GatewayContext, v: Viewer, a: AgentSessionConnectionArgs): Promise<ConnectionPage<AgentSession>> {
  const first = pageSize(a.first);
  const protocol = protocolFilter(ctx, a.protocol);
  const { from, to } = timeRange(a);
  const after = positionAfter<ListPosition>(ctx, 'agent-sessions', a.after);
  const matching = (await ctx.services.execution.agentSessions.list(v.accountId))
    .filter(
      (s) =>
        isAfter(s, after) &&
        (a.active === null || a.active === undefined || isActive(ctx, s) === a.active) &&
        (!protocol || s.protocols.includes(protocol)) &&
        (from === undefined || s.createdAt >= from) &&
        (to === undefined || s.createdAt <= to),
    )
    .sort(newestFirst);
  return connectionPage(
    matching.slice(0, first),
    (s) => ctx.services.cursors.encode('agent-sessions', positionOf(s)),
    matching.length > first,
    after !== undefined,
  );
}

export interface AuditConnectionArgs extends ForwardArgs, TimeRangeArgs {
  type?: string | null;
  referenceId?: string | null;
}

export async function viewerAuditLog(ctx: GatewayContext, v: Viewer, a: AuditConnectionArgs): Promise<ConnectionPage<AuditEntry>> {
  const first = pageSize(a.first);
  const range = timeRange(a);
  // The REST log's cursor: the account and the entries before a seq.
  const after = positionAfter<{ a: string; before: number }>(ctx, 'audit', a.after);
  const page = await auditPage(ctx, v.accountId, { ...range, type: a.type ?? undefined, referenceId: a.referenceId ?? undefined }, first, after);
  return connectionPage(page.entries, (e) => ctx.services.cursors.encode('audit', { a: v.accountId, before: e.seq }), page.more, after !== undefined);
}
