import type { AuditEntry } from '../../src/execution/execution-types.js';
import { invalidCursor, invalidField } from '../../src/errors/error-factories.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { principalOf } from './principal.js';

export const AUDIT_LIMIT = { min: 1, max: 1000, default: 100 } as const;

/** GET /api/v1/audit: the most recent entries and whether their chain verifies. */
export async function auditLog(
  ctx: GatewayContext,
  limit: number | null | undefined,
  cursor?: string | null,
): Promise<{ entries: AuditEntry[]; valid: boolean; brokenAt: number | null; nextCursor: string | null }> {
  const n = limit ?? AUDIT_LIMIT.default;
  if (n < AUDIT_LIMIT.min || n > AUDIT_LIMIT.max) throw invalidField('limit', `must be an integer from ${AUDIT_LIMIT.min} to ${AUDIT_LIMIT.max}`);
  const account = (await principalOf(ctx)).account.id;
  // The cursor names the account too: another account's cursor is refused like a forged one.
  const at = cursor ? ctx.services.cursors.decode<{ a: string; before: number }>('audit', cursor) : undefined;
  if (at && at.a !== account) throw invalidCursor('cursor', "'cursor' continues another account's log.");
  const log = await ctx.services.execution.audit.read(account, n, at?.before);
  const first = log.entries[0];
  return { ...log, nextCursor: first && first.seq > 1 ? ctx.services.cursors.encode('audit', { a: account, before: first.seq }) : null };
}
