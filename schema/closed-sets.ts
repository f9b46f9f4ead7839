import { STEP_BLOCKS, WORKFLOW_NODE_KINDS } from '../resolvers/agent/workflow-nodes.js';
import { APPROVAL_STATES, PRINCIPAL_KINDS } from '../src/execution/execution-types.js';
import { GATE_CODES } from '../src/errors/gate-refusals.js';
import { GATE_NAMES, GATE_STATUSES } from '../src/execution/gate-verdict.js';
import { PROTOCOL_KINDS } from '../src/protocols/protocol.js';
import { builder } from './builder.js';

/** Closed sets the graph carries as enums (values are the wire strings, unchanged). */
export const ApprovalStateEnum = builder.enumType('ApprovalState', { values: APPROVAL_STATES });
export const OrderSideEnum = builder.enumType('OrderSide', { description: 'Side of an order or a quote.', values: ['buy', 'sell'] as const });
export const PositionSideEnum = builder.enumType('PositionSide', { description: 'Side of a perpetual position.', values: ['long', 'short'] as const });
export const CacheWarmthEnum = builder.enumType('CacheWarmth', {
  description: 'warm: every market has a snapshot; partial: some; cold: none.',
  values: ['warm', 'partial', 'cold'] as const,
});
export const ProtocolKindEnum = builder.enumType('ProtocolKind', { values: PROTOCOL_KINDS });
export const GateNameEnum = builder.enumType('GateName', {
  description: 'The execution gates, in the order a submission meets them (internal names).',
  values: GATE_NAMES,
});
export const GateStatusEnum = builder.enumType('GateStatus', {
  description: 'pass, block, or not_evaluated when an earlier gate blocks.',
  values: GATE_STATUSES,
});
export const GateCodeEnum = builder.enumType('GateCode', { description: 'Public error codes of the execution gates.', values: GATE_CODES });
export const WorkflowNodeKindEnum = builder.enumType('WorkflowNodeKind', {
  description: 'trigger, data, preview, approval or execute.',
  values: WORKFLOW_NODE_KINDS,
});
export const PrincipalKindEnum = builder.enumType('PrincipalKind', { description: 'Who submitted: a wallet session or an API key.', values: PRINCIPAL_KINDS });
export const BlockingGateEnum = builder.enumType('BlockingGate', {
  description: 'What blocks an action or a workflow step: an execution gate, or a missing scope, wallet session or agent session.',
  values: [...GATE_NAMES, ...STEP_BLOCKS] as const,
});
