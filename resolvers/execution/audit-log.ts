import type { AuditEntry } from '../../src/execution/execution-types.js';
import { invalidField } from '../../src/errors/error-factories.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';
import { principalOf } from './principal.js';

export const AUDIT_LIMIT = { min: 1, max: 1000, default: 100 } as const;

/** GET /api/v1/audit: the most recent entries and whether their chain verifies. */
export async function auditLog(
  ctx: GatewayContext,
  limit: number | null | undefined,
): Promise<{ entries: AuditEntry[]; valid: boolean; brokenAt: number | null }> {
  const n = limit ?? AUDIT_LIMIT.default;
  if (n < AUDIT_LIMIT.min || n > AUDIT_LIMIT.max) throw invalidField('limit', `must be an integer from ${AUDIT_LIMIT.min} to ${AUDIT_LIMIT.max}`);
  return ctx.services.execution.audit.read((await principalOf(ctx)).account.id, n);
}
