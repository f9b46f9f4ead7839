import type { Execution } from '../../src/execution/execution-types.js';
import { isPolicyStoreOutage, policyUnavailable } from '../../src/execution/executions.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { principalOf, replayedAnswer } from './principal.js';

/** Authority that cannot be read (shared state down) fails closed as POLICY_UNAVAILABLE. */
export async function executeScopes(ctx: GatewayContext): Promise<{ 'execute:live': true }> {
  try {
    await ctx.auth.resolve();
  } catch (e) {
    if (isPolicyStoreOutage(e)) throw policyUnavailable();
    throw e;
  }
  return { 'execute:live': true };
}

/** POST /api/v1/execute: every gate, then the venue; a same-body replay is marked. */
export async function execute(ctx: GatewayContext, args: Record<string, unknown>): Promise<Execution & { replayed: boolean }> {
  const { execution, replayed } = await ctx.services.execution.executions.execute(await principalOf(ctx), args);
  return replayedAnswer({ ...execution, replayed }, replayed);
}

export async function executionOf(ctx: GatewayContext, executionId: string): Promise<Execution> {
  return ctx.services.execution.executions.get((await principalOf(ctx)).account.id, executionId);
}

export async function executionByReference(ctx: GatewayContext, referenceId: string): Promise<Execution> {
  return ctx.services.execution.executions.byReference((await principalOf(ctx)).account.id, referenceId);
}

/** DELETE /api/v1/execute/executions/{executionId}: cancels the rest of a resting routed order. */
export async function cancelExecution(ctx: GatewayContext, executionId: string): Promise<Execution> {
  return ctx.services.execution.executions.cancel(await principalOf(ctx), executionId);
}
