import { Decimal } from '../../domain/decimal.js';
import { isWalletAddress } from '../../domain/validators.js';
import { activeSessionsOf, coversAction, coversInstruction, periodStartOf } from '../agent-session-scope.js';
import type { Gate, GateContext, StandingContext } from '../gate-context.js';
import { block, pass, type GateVerdict } from '../gate-verdict.js';
import { isRoutedVenue } from '../venues/routed-venue.js';

const denied = (check: string, reason: string) => block('authority', 'POLICY_DENIED', check, reason);

/** Policy that cannot be read fails closed (spec: POLICY_UNAVAILABLE). */
async function failClosed(ctx: StandingContext, check: () => Promise<GateVerdict>): Promise<GateVerdict> {
  try {
    return await check();
  } catch (err) {
    ctx.deps.logger.error({ err }, 'policy store unreadable');
    return block('authority', 'POLICY_UNAVAILABLE', 'policy_store', 'Policy could not be checked.');
  }
}

/** Wallet readiness, the live scope, and for a key an active agent session covering the action. */
function standing(ctx: StandingContext): Promise<GateVerdict> {
  return failClosed(ctx, async () => {
    const { principal } = ctx;
    if (!isWalletAddress(principal.account.wallet)) return denied('wallet_readiness', 'The account has no ready wallet.');
    if (!principal.scopes.has('execute:live')) return denied('scope', 'This key lacks the execute:live scope.');
    if (principal.kind === 'key') {
      const sessions = await activeSessionsOf(ctx.deps.agentSessions, principal.account.id, principal.key.id, ctx.now);
      if (!sessions.some((s) => coversAction(s, ctx.protocol.id, ctx.action.id)))
        return denied('agent_session', 'No active agent session of this key covers this action.');
    }
    return pass('authority');
  });
}

/**
 * Wallet readiness, then an exact approval (interactive) or a covering agent session within its
 * per-order cap (API key). A preview by a wallet passes here on the condition it states: the
 * submission must carry an approved approval of this exact instruction.
 */
function evaluate(ctx: GateContext): Promise<GateVerdict> {
  return failClosed(ctx, async () => {
    const { principal, deps, hash, now } = ctx;
    if (!isWalletAddress(ctx.account.wallet)) return denied('wallet_readiness', 'The account has no ready wallet.');
    const venue = ctx.target.venue;
    if (isRoutedVenue(venue) && venue.boundAccount !== undefined && venue.boundAccount !== ctx.account.id)
      return denied('venue_account', `${ctx.protocol.id}'s venue account takes the orders of another gateway account only.`);
    if (ctx.approvalId !== undefined) {
      // Spec: approvals are the interactive path; API-key clients execute within agent sessions.
      if (principal.kind !== 'wallet') {
        return denied('approval', 'Approvals are submitted by the wallet session that approved them; API keys execute within an agent session.');
      }
      const approval = await deps.approvals.get(ctx.approvalId);
      if (!approval || approval.accountId !== ctx.account.id) return denied('approval', 'No such approval for this account.');
      if (approval.instructionHash !== hash) return denied('approval', 'The approval was given for a different instruction.');
      if (approval.expiresAt <= now && approval.state !== 'consumed') return denied('approval', 'The approval has expired.');
      if (approval.state !== 'approved') return denied('approval', `The approval is ${approval.state}.`);
      ctx.authority.approval = approval;
      return pass('authority', 'exact approval');
    }
    if (principal.kind === 'wallet') {
      if (ctx.mode === 'preview') return pass('authority', 'Needs an approved approval of this exact instruction at submission (interactive).');
      return denied('approval', 'An interactive submission needs an approved approvalId.');
    }
    const sessions = await activeSessionsOf(deps.agentSessions, ctx.account.id, principal.key.id, now);
    const covering = sessions.find((s) => coversInstruction(s, ctx.instruction));
    if (!covering) return denied('agent_session', 'No active agent session of this key covers this protocol, action and asset.');
    const { quote } = await ctx.priced();
    if (quote && new Decimal(quote.notionalUsd).gt(covering.maxOrderNotional)) {
      return denied('order_cap', `The order notional ${quote.notionalUsd} USD exceeds the session cap of ${covering.maxOrderNotional} USD per order.`);
    }
    if (quote) {
      // The period cap with the spend as of now, so a preview predicts what the submission meets
      // (the submission's atomic count stays the authority under races).
      const spent = await deps.agentSessions.spent(covering.id, periodStartOf(covering, now));
      if (new Decimal(spent).plus(quote.notionalUsd).gt(covering.maxPeriodNotional)) {
        return denied(
          'period_cap',
          `The order would pass the session cap of ${covering.maxPeriodNotional} USD per period (${spent} USD spent, this order ${quote.notionalUsd} USD).`,
        );
      }
    }
    ctx.authority.session = covering;
    return pass('authority', 'agent session');
  });
}

/** Who may execute this: wallet readiness, then an approval or an agent session (POLICY_DENIED, POLICY_UNAVAILABLE). */
export const authorityGate: Gate = { name: 'authority', codes: ['POLICY_DENIED', 'POLICY_UNAVAILABLE'], standing, evaluate };
