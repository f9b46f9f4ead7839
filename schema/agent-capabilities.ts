import { capabilitiesEnvelope, type ActionCapability, type Capabilities, type GateBlock, type ProtocolCapability } from '../resolvers/agent/capabilities.js';
import { workflowNodesEnvelope, type WorkflowNode, type WorkflowNodes } from '../resolvers/agent/workflow-nodes.js';
import { builder } from './builder.js';
import { BlockingGateEnum, GateCodeEnum, ProtocolKindEnum, WorkflowNodeKindEnum } from './closed-sets.js';
import { envelopeType } from './envelope.js';
import { SourceStatusEnum } from './freshness.js';
import { CertificationStateEnum } from './protocol.js';

const GateBlockRef = builder.objectRef<GateBlock | WorkflowNode['blockedBy'][number]>('GateBlock').implement({
  description:
    'A gate that blocks an action right now, in gate order: the first is what a submission would meet first. `gate` is the internal gate name, `check` the check within it; `code` the error a submission would get.',
  fields: (t) => ({
    gate: t.field({ type: BlockingGateEnum, resolve: (g) => g.gate }),
    check: t.string({ nullable: true, resolve: (g) => ('check' in g ? g.check : null) }),
    code: t.field({ type: GateCodeEnum, nullable: true, resolve: (g) => ('code' in g ? g.code : null) }),
    reason: t.exposeString('reason'),
  }),
});

const ScopesByModeRef = builder.objectRef<ActionCapability['requiredScopes']>('ScopesByMode').implement({
  fields: (t) => ({ preview: t.exposeStringList('preview'), live: t.exposeStringList('live') }),
});

const AllowedRef = builder.objectRef<ActionCapability['allowed']>('AllowedNow').implement({
  fields: (t) => ({ preview: t.exposeBoolean('preview'), live: t.exposeBoolean('live') }),
});

const ActionCapabilityRef = builder.objectRef<ActionCapability>('ActionCapability').implement({
  fields: (t) => ({
    protocol: t.exposeString('protocol'),
    action: t.exposeString('action', {
      description: 'A GraphQL String, not an enum: action ids are protocol-registry data, and a hidden or newly configured id must still serialize.',
    }),
    name: t.exposeString('name'),
    certification: t.field({ type: CertificationStateEnum, resolve: (a) => a.certification }),
    requiredScopes: t.field({ type: ScopesByModeRef, resolve: (a) => a.requiredScopes }),
    agentSessionRequired: t.exposeBoolean('agentSessionRequired'),
    approvalModes: t.exposeStringList('approvalModes'),
    allowed: t.field({ type: AllowedRef, resolve: (a) => a.allowed }),
    blockedBy: t.field({ type: [GateBlockRef], resolve: (a) => a.blockedBy }),
  }),
});

const ProtocolCapabilityRef = builder.objectRef<ProtocolCapability>('ProtocolCapability').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    kind: t.field({ type: ProtocolKindEnum, resolve: (p) => p.kind }),
    sourceStatus: t.field({ type: SourceStatusEnum, resolve: (p) => p.sourceStatus }),
    actions: t.field({ type: [ActionCapabilityRef], resolve: (p) => p.actions }),
  }),
});

const McpInterfaceRef = builder.objectRef<Capabilities['interfaces']['mcp']>('McpInterface').implement({
  description: 'The Model Context Protocol endpoint: tools generated from the workflow nodes, with the same Bearer credential and scopes.',
  fields: (t) => ({ endpoint: t.exposeString('endpoint'), transport: t.exposeString('transport'), tools: t.exposeString('tools') }),
});

const AgentInterfacesRef = builder.objectRef<Capabilities['interfaces']>('AgentInterfaces').implement({
  fields: (t) => ({ mcp: t.field({ type: McpInterfaceRef, resolve: (i) => i.mcp }) }),
});

const CapabilitiesRef = builder.objectRef<Capabilities>('Capabilities').implement({
  fields: (t) => ({
    keyId: t.exposeString('keyId', { nullable: true }),
    interfaces: t.field({ type: AgentInterfacesRef, resolve: (c) => c.interfaces }),
    accountId: t.exposeString('accountId'),
    scopes: t.exposeStringList('scopes'),
    executionEnabled: t.exposeBoolean('executionEnabled'),
    killSwitchEngaged: t.exposeBoolean('killSwitchEngaged'),
    protocols: t.field({ type: [ProtocolCapabilityRef], resolve: (c) => c.protocols }),
  }),
});

const RouteRefType = builder.objectRef<{ method: string; path: string }>('RouteRef').implement({
  fields: (t) => ({ method: t.exposeString('method'), path: t.exposeString('path') }),
});

const WorkflowNodeRef = builder.objectRef<WorkflowNode>('WorkflowNode').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    kind: t.field({ type: WorkflowNodeKindEnum, description: 'trigger, data, preview, approval or execute.', resolve: (n) => n.kind }),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    route: t.field({ type: RouteRefType, nullable: true, resolve: (n) => n.route }),
    subscription: t.exposeString('subscription', { nullable: true }),
    requiredScopes: t.exposeStringList('requiredScopes'),
    available: t.exposeBoolean('available'),
    blockedBy: t.field({ type: [GateBlockRef], resolve: (n) => n.blockedBy }),
    inputSchema: t.field({ type: 'JSONObject', resolve: (n) => n.inputSchema }),
    outputSchema: t.field({ type: 'JSONObject', resolve: (n) => n.outputSchema }),
  }),
});

const WorkflowNodesRef = builder.objectRef<WorkflowNodes>('WorkflowNodes').implement({
  fields: (t) => ({ nodes: t.field({ type: [WorkflowNodeRef], resolve: (w) => w.nodes }) }),
});

const CapabilitiesEnvelope = envelopeType('CapabilitiesEnvelope', CapabilitiesRef, { description: 'Envelope: live capabilities of this key.' });
const WorkflowNodesEnvelope = envelopeType('WorkflowNodesEnvelope', WorkflowNodesRef, { description: 'Envelope: workflow nodes.' });

builder.queryFields((t) => ({
  capabilities: t.field({
    type: CapabilitiesEnvelope,
    description: 'GET /api/v1/capabilities (any valid key)',
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => capabilitiesEnvelope(ctx),
  }),
  workflowNodes: t.field({
    type: WorkflowNodesEnvelope,
    description: 'GET /api/v1/workflow-nodes (any valid key)',
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => workflowNodesEnvelope(ctx),
  }),
  contractOpenApi: t.field({
    type: 'JSONObject',
    description: 'GET /api/v1/openapi.json: the full contract, OpenAPI 3.1 (any valid key)',
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => ctx.services.contract.fullDocument(),
  }),
}));
