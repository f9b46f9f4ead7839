import type { Scope } from '../../src/auth/identity.js';
import { combineFreshness, missingFreshness, sourceFreshness } from '../../src/domain/freshness.js';
import type { SourceStatus } from '../../src/domain/source-health.js';
import type { CertificationState, ProtocolKind } from '../../src/protocols/protocol.js';
import type { GateCode } from '../../src/errors/gate-refusals.js';
import type { GateName, GateVerdict } from '../../src/execution/gate-verdict.js';
import type { GatewayContext } from '../../src/http/context/gateway-context.js';
import { publicEnvelope, type PublicEnvelope } from '../public/envelope.js';

/** Why an action cannot run right now: the gate an execution would meet (internal name), its check, the public code, a reason. */
export interface GateBlock {
  gate: GateName;
  check: string | null;
  code: GateCode;
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
  kind: ProtocolKind;
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
  /** Agent interfaces beside REST: the MCP endpoint (Streamable HTTP, same Bearer credential). */
  interfaces: { mcp: { endpoint: string; transport: 'streamable-http'; tools: string } };
}

const toBlock = (v: GateVerdict): GateBlock => ({ gate: v.gate, check: v.check, code: v.code ?? 'POLICY_DENIED', reason: v.reason });

export async function capabilitiesEnvelope(ctx: GatewayContext): Promise<PublicEnvelope<Capabilities>> {
  const auth = await ctx.auth.resolve();
  if (auth.kind === 'anonymous') throw new Error('capabilities resolved without a principal');
  const { reader, protocols, controls, clock, execution } = ctx.services;
  const now = clock.now();
  const health = await reader.healthBySource();
  const visible = protocols.visibleProtocols();
  const data: Capabilities = {
    keyId: auth.kind === 'key' ? auth.key.id : null,
    accountId: auth.account.id,
    scopes: [...auth.scopes],
    executionEnabled: controls.isExecutionEnabled(),
    killSwitchEngaged: controls.killSwitchState().engaged,
    interfaces: { mcp: { endpoint: '/mcp', transport: 'streamable-http', tools: 'the workflow nodes with a route (GET /api/v1/workflow-nodes)' } },
    protocols: await Promise.all(
      visible.map(async (p) => ({
        id: p.id,
        name: p.name,
        kind: p.kind,
        sourceStatus: health.get(p.sourceId)?.status ?? 'unknown',
        actions: await Promise.all(
          p.actions.map(async (a) => {
            // The gates' standing checks, in gate order: the first is what an execution would meet first.
            const blockedBy = (await execution.gates.standingBlocks({ principal: auth, protocol: p, action: a, now })).map(toBlock);
            return {
              protocol: p.id,
              action: a.id,
              name: a.name,
              certification: a.certification,
              requiredScopes: { preview: ['execute:preview'], live: ['execute:live'] } as ActionCapability['requiredScopes'],
              agentSessionRequired: auth.kind === 'key',
              approvalModes: auth.kind === 'key' ? ['agent_session'] : ['interactive_approval'],
              allowed: { preview: auth.scopes.has('execute:preview'), live: blockedBy.length === 0 },
              blockedBy,
            };
          }),
        ),
      })),
    ),
  };
  const freshness = combineFreshness(
    visible.map((p) => sourceFreshness(health.get(p.sourceId), now)),
    missingFreshness('no_snapshot', 'unknown', now),
  );
  return publicEnvelope(data, freshness, now);
}
