import { z } from 'zod';
import { agentSessionRequestSchema } from '../execution/agent-sessions.js';
import { instructionSchema } from '../execution/instruction.js';
import { HISTORY_RESOLUTIONS } from '../market-data/history-limits.js';
import { DEFAULT_PROTOCOLS } from '../protocols/default-protocols.js';

type JsonSchema = Record<string, unknown>;

/** The protocols and actions a client may name (hidden ones are never listed). */
export const PROTOCOL_IDS = DEFAULT_PROTOCOLS.filter((p) => p.visibility === 'public').map((p) => p.id);
export const ACTION_IDS = [
  ...new Set(DEFAULT_PROTOCOLS.filter((p) => p.visibility === 'public').flatMap((p) => p.actions.filter((a) => a.visibility === 'public').map((a) => a.id))),
];

function fromZod(schema: z.ZodType, description: string): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return { ...json, description };
}

const request = instructionSchema.extend({ protocol: z.enum(PROTOCOL_IDS as [string, ...string[]]), action: z.enum(ACTION_IDS as [string, ...string[]]) });

/**
 * Named request bodies, generated from the zod schemas the gateway parses them with, so the
 * contract and the validation cannot drift apart.
 */
export const REQUEST_SCHEMAS: Record<string, JsonSchema> = {
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

/** Closed sets the GraphQL types carry as strings (their values are not fixed in the schema): `Component.property` → its values. GraphQL enums need no entry. */
export const RESPONSE_ENUMS: Record<string, readonly string[]> = {
  'Execution.protocol': PROTOCOL_IDS,
  'Execution.action': ACTION_IDS,
  'ActionCapability.protocol': PROTOCOL_IDS,
  'ActionCapability.action': ACTION_IDS,
  'MarketHistory.resolution': HISTORY_RESOLUTIONS,
};
