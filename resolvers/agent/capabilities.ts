import type { AuthResult } from '../../src/auth/authenticator.js';
import type { Scope } from '../../src/auth/identity.js';
import { combineFreshness, missingFreshness, sourceFreshness } from '../../src/domain/freshness.js';
import type { SourceStatus } from '../../src/domain/source-health.js';
import type { ActionDefinition, CertificationState, ProtocolDefinition } from '../../src/protocols/protocol.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';

/** Why an action cannot run right now: the gate (internal name), the public code, a reason. */
export interface GateBlock {
  gate: 'feature_flag' | 'certification' | 'venue_health' | 'kill_switch' | 'circuit_breaker' | 'scope' | 'agent_session';
  code: string;
  reason: string;
}

export interface ActionCapability {
  protocol: string;
  action: string;
  name: string;
  certification: CertificationState;
  requiredScopes: { preview: Scope[]; live: Scope[] };
  /** API-key clients execute live only inside an active agent session (spec, Authentication 5). */
  agentSessionRequired: boolean;
  approvalModes: string[];
  allowed: { preview: boolean; live: boolean };
  blockedBy: GateBlock[];
}

export interface ProtocolCapability {
  id: string;
  name: string;
  kind: string;
  sourceStatus: SourceStatus;
  actions: ActionCapability[];
}

export interface Capabilities {
  /** The API key asking, or null for a wallet session. */
  keyId: string | null;
  accountId: string;
  scopes: Scope[];
  executionEnabled: boolean;
  killSwitchEngaged: boolean;
  protocols: ProtocolCapability[];
}

const CERTIFICATION_CODE: Record<Exclude<CertificationState, 'certified'>, string> = {
  canary: 'ACTION_CANARY_ONLY',
  disabled: 'ACTION_NOT_CERTIFIED',
  blocked: 'ACTION_NOT_CERTIFIED',
  partner_required: 'ACTION_NOT_CERTIFIED',
  legal_review_only: 'ACTION_NOT_CERTIFIED',
};

/**
 * The gates that would refuse a live execution of `action` now, in the DESIGN order (feature flag,
 * certification, venue health / kill switch / circuit breaker, then this key's authority).
 */
export function gateBlocks(
  ctx: GatewayContext,
  p: ProtocolDefinition,
  action: ActionDefinition,
  status: SourceStatus,
  auth: AuthResult,
  activeSessionCovers: boolean,
): GateBlock[] {
  const { controls } = ctx.services;
  const blocks: GateBlock[] = [];
  if (!controls.isExecutionEnabled()) blocks.push({ gate: 'feature_flag', code: 'EXECUTION_DISABLED', reason: 'Execution is disabled in this environment.' });
  const disabled = controls.protocolDisabledReason(p.id);
  if (disabled) blocks.push({ gate: 'feature_flag', code: 'EXECUTION_DISABLED', reason: `${p.id}: ${disabled}` });
  if (action.certification !== 'certified') {
    blocks.push({ gate: 'certification', code: CERTIFICATION_CODE[action.certification], reason: `${p.id}/${action.id} is ${action.certification}.` });
  }
  if (status !== 'healthy') blocks.push({ gate: 'venue_health', code: 'VENUE_UNHEALTHY', reason: `Venue ${p.sourceId} is ${status}.` });
  const kill = controls.killSwitchState();
  if (kill.engaged) blocks.push({ gate: 'kill_switch', code: 'VENUE_UNHEALTHY', reason: kill.reason ?? 'Kill switch engaged.' });
  const breaker = controls.breakerReason(p.sourceId);
  if (breaker) blocks.push({ gate: 'circuit_breaker', code: 'VENUE_UNHEALTHY', reason: breaker });
  if (auth.kind === 'anonymous' || !auth.scopes.has('execute:live')) {
    blocks.push({ gate: 'scope', code: 'POLICY_DENIED', reason: 'This key lacks the execute:live scope.' });
  }
  if (auth.kind === 'key' && !activeSessionCovers) {
    blocks.push({ gate: 'agent_session', code: 'POLICY_DENIED', reason: 'No active agent session of this key covers this action.' });
  }
  return blocks;
}

export async function capabilitiesEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<Capabilities>> {
  const auth = await ctx.auth.resolve();
  if (auth.kind === 'anonymous') throw new Error('capabilities resolved without a principal');
  const { reader, protocols, controls, clock } = ctx.services;
  const now = clock.now();
  const health = await reader.healthBySource();
  const sessions = auth.kind === 'key' ? await ctx.services.execution.agentSessions.activeFor(auth.account.id, auth.key.id, now) : [];
  const visible = protocols.visibleProtocols();
  const data: Capabilities = {
    keyId: auth.kind === 'key' ? auth.key.id : null,
    accountId: auth.account.id,
    scopes: [...auth.scopes],
    executionEnabled: controls.isExecutionEnabled(),
    killSwitchEngaged: controls.killSwitchState().engaged,
    protocols: visible.map((p) => {
      const status = health.get(p.sourceId)?.status ?? 'unknown';
      return {
        id: p.id,
        name: p.name,
        kind: p.kind,
        sourceStatus: status,
        actions: p.actions.map((a) => {
          const covered = sessions.some((s) => s.protocols.includes(p.id) && s.actions.includes(a.id));
          const blockedBy = gateBlocks(ctx, p, a, status, auth, covered);
          return {
            protocol: p.id,
            action: a.id,
            name: a.name,
            certification: a.certification,
            requiredScopes: { preview: ['execute:preview'], live: ['execute:live'] },
            agentSessionRequired: auth.kind === 'key',
            approvalModes: auth.kind === 'key' ? ['agent_session'] : ['interactive_approval'],
            allowed: { preview: auth.scopes.has('execute:preview'), live: blockedBy.length === 0 },
            blockedBy,
          };
        }),
      };
    }),
  };
  const freshness = combineFreshness(
    visible.map((p) => sourceFreshness(health.get(p.sourceId), now)),
    missingFreshness('no_snapshot', 'unknown', now),
  );
  return publicEnvelope(ctx, data, freshness, now);
}
