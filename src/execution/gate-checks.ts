import { Decimal } from '../domain/decimal.js';
import type { Account } from '../auth/identity.js';
import type { Principal } from '../auth/authenticator.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ActionDefinition, ProtocolDefinition } from '../protocols/protocol.js';
import type { ExecutionDeps } from './execution-deps.js';
import type { AgentSession, Approval } from './execution-types.js';
import { block, pass, type GateVerdict } from './gates.js';
import { invalidField } from '../errors/error-factories.js';
import type { ExecutionInstruction } from './instruction.js';
import type { StoredPreview } from './stored-preview.js';
import type { ExecutionVenue, Quote } from './venues/execution-venue.js';
import { orderBookView } from '../market-data/order-book-view.js';
import { isWalletAddress } from '../domain/validators.js';

/** The protocol, action and venue an instruction names; unknown or hidden ones are a 400 alike. */
export function resolveTarget(deps: ExecutionDeps, i: ExecutionInstruction): { protocol: ProtocolDefinition; action: ActionDefinition; venue: ExecutionVenue } {
  const protocol = deps.protocols.visibleProtocols().find((p) => p.id === i.protocol);
  const venue = protocol && deps.venues.get(protocol.id);
  if (!protocol || !venue) throw invalidField('protocol', `is not a known protocol (see GET /api/v1/capabilities)`);
  const action = protocol.actions.find((a) => a.id === i.action);
  if (!action) throw invalidField('action', `is not an action of ${protocol.id}`);
  return { protocol, action, venue };
}

export function checkFeatureFlag(deps: ExecutionDeps, protocol: ProtocolDefinition): GateVerdict {
  if (!deps.controls.isExecutionEnabled())
    return block('feature_flag', 'EXECUTION_DISABLED', 'execution_enabled', 'Execution is disabled in this environment.');
  const reason = deps.controls.protocolDisabledReason(protocol.id);
  if (reason) return block('feature_flag', 'EXECUTION_DISABLED', 'protocol_enabled', `Execution on ${protocol.id} is disabled: ${reason}.`);
  return pass('feature_flag');
}

export function checkCertification(protocol: ProtocolDefinition, action: ActionDefinition): GateVerdict {
  if (protocol.certification !== 'certified') return block('certification', 'ACTION_NOT_CERTIFIED', protocol.certification, `${protocol.id} is not certified.`);
  if (action.certification === 'canary') return block('certification', 'ACTION_CANARY_ONLY', 'canary', `${protocol.id}/${action.id} is canary-only.`);
  if (action.certification !== 'certified')
    return block('certification', 'ACTION_NOT_CERTIFIED', action.certification, `${protocol.id}/${action.id} is ${action.certification.replace(/_/g, ' ')}.`);
  return pass('certification');
}

/**
 * Venue health from the data plane, the kill switch, the venue's circuit breaker, market hours,
 * and the freshness of the data the quote rests on: stale data is never an execution signal (spec).
 */
export async function checkVenue(deps: ExecutionDeps, protocol: ProtocolDefinition, quote: Quote | undefined, now: number): Promise<GateVerdict> {
  const kill = deps.controls.killSwitchState();
  if (kill.engaged) return block('venue', 'VENUE_UNHEALTHY', 'kill_switch', `Execution is halted: ${kill.reason ?? 'operator decision'}.`);
  const breaker = deps.controls.breakerReason(protocol.sourceId);
  if (breaker) return block('venue', 'VENUE_UNHEALTHY', 'circuit_breaker', `Orders to this venue are paused: ${breaker}.`);
  const status = await deps.reader.sourceStatus(protocol.sourceId);
  if (status !== 'healthy') return block('venue', 'VENUE_UNHEALTHY', 'venue_health', `The venue is ${status}.`);
  if (quote && !quote.tradable.ok) return block('venue', 'VENUE_UNHEALTHY', 'market_hours', quote.tradable.reason);
  const market = quote && deps.reader.directory.resolve(quote.marketId);
  if (market) {
    const { freshness } = await deps.reader.freshness(market, now);
    if (freshness.stale)
      return block(
        'venue',
        'VENUE_UNHEALTHY',
        'market_data_stale',
        `Market data for ${market.id} is stale (${freshness.freshnessMs} ms old); it is not an execution signal.`,
      );
    const book = market.hasOrderBook ? await deps.cache.getOrderBook(market.id) : undefined;
    if (book && orderBookView(market, book, status, now).freshness.stale) {
      return block('venue', 'VENUE_UNHEALTHY', 'market_data_stale', `The order book of ${market.id} is stale; it is not an execution signal.`);
    }
  }
  return pass('venue');
}

export interface AuthorityResult {
  verdict: GateVerdict;
  approval?: Approval;
  session?: AgentSession;
}

const activeAt = (s: AgentSession, now: number) => s.revokedAt === null && s.startsAt <= now && now < s.expiresAt;

/** Agent sessions of one key that are in force now. */
export async function activeSessions(deps: ExecutionDeps, accountId: string, keyId: string, now: number): Promise<AgentSession[]> {
  return (await deps.agentSessions.list(accountId)).filter((s) => s.apiKeyId === keyId && activeAt(s, now));
}

/**
 * Wallet readiness, then either an exact approval (interactive) or a covering agent session
 * (API key). A policy store that cannot be read fails closed with POLICY_UNAVAILABLE.
 */
export async function checkAuthority(
  deps: ExecutionDeps,
  principal: Principal,
  account: Account,
  i: ExecutionInstruction,
  hash: string,
  quote: Quote | undefined,
  approvalId: string | undefined,
  now: number,
): Promise<AuthorityResult> {
  if (!isWalletAddress(account.wallet)) return { verdict: block('authority', 'POLICY_DENIED', 'wallet_readiness', 'The account has no ready wallet.') };
  try {
    if (approvalId !== undefined) {
      // Spec: approvals are the interactive path; API-key clients execute within agent sessions.
      if (principal.kind !== 'wallet')
        return {
          verdict: block(
            'authority',
            'POLICY_DENIED',
            'approval',
            'Approvals are submitted by the wallet session that approved them; API keys execute within an agent session.',
          ),
        };
      const approval = await deps.approvals.get(approvalId);
      if (!approval || approval.accountId !== account.id)
        return { verdict: block('authority', 'POLICY_DENIED', 'approval', 'No such approval for this account.') };
      if (approval.instructionHash !== hash)
        return { verdict: block('authority', 'POLICY_DENIED', 'approval', 'The approval was given for a different instruction.') };
      if (approval.expiresAt <= now && approval.state !== 'consumed')
        return { verdict: block('authority', 'POLICY_DENIED', 'approval', 'The approval has expired.') };
      if (approval.state !== 'approved') return { verdict: block('authority', 'POLICY_DENIED', 'approval', `The approval is ${approval.state}.`) };
      return { verdict: pass('authority', 'exact approval'), approval };
    }
    if (principal.kind === 'wallet')
      return { verdict: block('authority', 'POLICY_DENIED', 'approval', 'An interactive submission needs an approved approvalId.') };
    const sessions = await activeSessions(deps, account.id, principal.key.id, now);
    const asset = i.assetIn.token.toUpperCase();
    const covering = sessions.find(
      (s) => s.protocols.includes(i.protocol) && s.actions.includes(i.action) && s.assets.map((a) => a.toUpperCase()).includes(asset),
    );
    if (!covering)
      return { verdict: block('authority', 'POLICY_DENIED', 'agent_session', 'No active agent session of this key covers this protocol, action and asset.') };
    if (quote && new Decimal(quote.notionalUsd).gt(covering.maxOrderNotional)) {
      return {
        verdict: block(
          'authority',
          'POLICY_DENIED',
          'order_cap',
          `The order notional ${quote.notionalUsd} USD exceeds the session cap of ${covering.maxOrderNotional} USD per order.`,
        ),
      };
    }
    return { verdict: pass('authority', 'agent session'), session: covering };
  } catch (err) {
    deps.logger.error({ err }, 'policy store unreadable');
    return { verdict: block('authority', 'POLICY_UNAVAILABLE', 'policy_store', 'Policy could not be checked.') };
  }
}

export function checkQuote(preview: StoredPreview | undefined, hash: string, now: number): GateVerdict {
  if (!preview) return block('quote', 'QUOTE_STALE', 'preview', 'No preview of this instruction; preview it first.');
  if (preview.instructionHash !== hash) return block('quote', 'QUOTE_STALE', 'preview', 'The preview for this referenceId was of a different instruction.');
  if (preview.expiresAt <= now) return block('quote', 'QUOTE_STALE', 'preview', 'The preview has expired.');
  return pass('quote', `preview ${preview.id}`);
}

/** The ledger covers every debit of the quote, and venue rules (collateral) hold. */
export async function checkBalance(deps: ExecutionDeps, account: Account, quote: Quote): Promise<GateVerdict> {
  const balances = await deps.ledger.balancesOf(account);
  for (const [token, delta] of Object.entries(quote.changes)) {
    if (quote.mayGoNegative.includes(token)) continue;
    const after = new Decimal(balances[token] ?? 0).plus(delta);
    if (after.isNeg())
      return block('balance', 'INSUFFICIENT_BALANCE', 'ledger', `Needs ${new Decimal(delta).neg()} ${token}; ${balances[token] ?? '0'} available.`);
  }
  if (quote.insufficient) return block('balance', 'INSUFFICIENT_BALANCE', 'collateral', quote.insufficient);
  return pass('balance');
}

/** A venue that cannot price right now counts as unhealthy, never as a crash. */
export async function quoteOrBlock(
  venue: ExecutionVenue,
  i: ExecutionInstruction,
  ctx: Parameters<ExecutionVenue['quote']>[1],
): Promise<{ quote?: Quote; verdict?: GateVerdict }> {
  try {
    return { quote: await venue.quote(i, ctx) };
  } catch (e) {
    if (e instanceof GatewayError && e.status === 503) return { verdict: block('venue', 'VENUE_UNHEALTHY', 'venue_health', e.message) };
    throw e;
  }
}
