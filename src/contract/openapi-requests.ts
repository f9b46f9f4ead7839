import { z } from 'zod';
import { agentSessionRequestSchema } from '../execution/agent-sessions.js';
import { instructionSchema } from '../execution/instruction.js';
import { HISTORY_RESOLUTIONS } from '../market-data/history-limits.js';
import type { ProtocolDefinition } from '../protocols/protocol.js';

type JsonSchema = Record<string, unknown>;

function fromZod(schema: z.ZodType, description: string): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return { ...json, description };
}

/**
 * Named request bodies, generated from the zod schemas the gateway parses them with, so the
 * contract and the validation cannot drift apart; `protocol` and `action` name what the venues
 * configured at start serve (hidden ones are never listed).
 */
export function requestSchemas(protocols: readonly ProtocolDefinition[]): Record<string, JsonSchema> {
  const listed = protocols.filter((p) => p.visibility === 'public');
  const protocolIds = listed.map((p) => p.id);
  const actionIds = [...new Set(listed.flatMap((p) => p.actions.filter((a) => a.visibility === 'public').map((a) => a.id)))];
  const request = instructionSchema.extend({ protocol: z.enum(protocolIds as [string, ...string[]]), action: z.enum(actionIds as [string, ...string[]]) });
  return {
    ExecutionRequest: fromZod(request, 'An instruction: preview, approval and execute take the same body (execute adds approvalId).'),
    ExecuteRequest: fromZod(
      request.extend({ approvalId: z.string().min(1).optional().describe('The one-time approval (interactive clients); omitted under an agent session.') }),
      'The unchanged previewed instruction, plus the approvalId for interactive clients.',
    ),
    ApprovalDecision: fromZod(
      z.object({
        decision: z.enum(['approve', 'reject']),
        message: z.string().min(1).describe('EIP-4361 message with a fresh nonce and the statement and resources of the signing request.'),
        signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
      }),
      'A decision on an approval, signed afresh by the wallet.',
    ),
    AgentSessionRequest: fromZod(agentSessionRequestSchema, 'Bounds of an agent session for one API key.'),
    SiweVerifyRequest: fromZod(
      z.object({ message: z.string().min(1).describe('The EIP-4361 message.'), signature: z.string().regex(/^0x[0-9a-fA-F]+$/) }),
      'A signed EIP-4361 sign-in message.',
    ),
  };
}

/** Closed sets the GraphQL types carry as strings (their values are not fixed in the schema): `Component.property` → its values. GraphQL enums need no entry. */
export function responseEnums(protocols: readonly ProtocolDefinition[]): Record<string, readonly string[]> {
  const listed = protocols.filter((p) => p.visibility === 'public');
  const protocolIds = listed.map((p) => p.id);
  const actionIds = [...new Set(listed.flatMap((p) => p.actions.filter((a) => a.visibility === 'public').map((a) => a.id)))];
  return {
    'Execution.protocol': protocolIds,
    'Execution.action': actionIds,
    'ActionCapability.protocol': protocolIds,
    'ActionCapability.action': actionIds,
    'MarketHistory.resolution': HISTORY_RESOLUTIONS,
  };
}
