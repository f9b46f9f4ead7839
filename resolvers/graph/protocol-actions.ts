import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { actionProtocol, type PublicAction } from '../public/protocols.js';

export interface ActionAvailabilityNow {
  availableNow: boolean;
  /** Why not, for the caller: the first standing check an execution would meet; null when available. */
  reason: string | null;
  code: string | null;
}

const ANONYMOUS: ActionAvailabilityNow = {
  availableNow: false,
  reason: 'Executing needs an API key or a wallet session.',
  code: 'authentication_required',
};

const perRequest = new WeakMap<GatewayContext, WeakMap<PublicAction, Promise<ActionAvailabilityNow>>>();

/**
 * Whether the caller could execute this action now: the standing checks of the execution gates
 * (feature flags, certification, kill switch, circuit breaker and venue health, scope, wallet and
 * agent session), the same subset capabilities report. Anonymous callers never can. Computed once
 * per action per request, whichever of its fields are selected.
 */
export function actionAvailabilityNow(ctx: GatewayContext, action: PublicAction): Promise<ActionAvailabilityNow> {
  let memo = perRequest.get(ctx);
  if (!memo) perRequest.set(ctx, (memo = new WeakMap()));
  let result = memo.get(action);
  if (!result) memo.set(action, (result = evaluate(ctx, action)));
  return result;
}

async function evaluate(ctx: GatewayContext, view: PublicAction): Promise<ActionAvailabilityNow> {
  const principal = await ctx.auth.resolve();
  if (principal.kind === 'anonymous') {
    // A credential was sent but is not valid: say so, as the routes that need one answer 401 unauthenticated.
    if (principal.problem === 'missing') return ANONYMOUS;
    return { availableNow: false, reason: `The credential sent is not valid (${principal.problem}).`, code: 'unauthenticated' };
  }
  const protocol = actionProtocol(view);
  const action = protocol?.actions.find((a) => a.id === view.id);
  if (!protocol || !action) return { availableNow: false, reason: 'This action is not offered.', code: 'ACTION_NOT_CERTIFIED' };
  const now = ctx.services.clock.now();
  const [first] = await ctx.services.execution.gates.standingBlocks({ principal, protocol, action, now });
  if (!first) return { availableNow: true, reason: null, code: null };
  return { availableNow: false, reason: first.reason, code: first.code ?? 'POLICY_DENIED' };
}
