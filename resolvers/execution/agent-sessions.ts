import type { AgentSession } from '../../src/execution/execution-types.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { principalOf } from './principal.js';

export async function activateAgentSession(ctx: GatewayContext, args: Record<string, unknown>): Promise<AgentSession> {
  return ctx.services.execution.agentSessions.activate(await principalOf(ctx), args);
}

export async function revokeAgentSession(ctx: GatewayContext, sessionId: string): Promise<AgentSession> {
  return ctx.services.execution.agentSessions.revoke(await principalOf(ctx), sessionId);
}

export async function agentSessionsOf(ctx: GatewayContext): Promise<AgentSession[]> {
  return ctx.services.execution.agentSessions.list((await principalOf(ctx)).account.id);
}

/** In force now: not revoked, started, not expired. */
export function isActive(ctx: GatewayContext, s: AgentSession): boolean {
  const now = ctx.services.clock.now();
  return s.revokedAt === null && s.startsAt <= now && now < s.expiresAt;
}
