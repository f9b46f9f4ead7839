import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { z } from 'zod';
import { invalidBody } from '../errors/error-factories.js';
import { positiveDecimal } from '../domain/validators.js';

/** The execution request of the spec (preview body), strict: unknown fields are refused. */
export const instructionSchema = z
  .object({
    protocol: z.string().min(1).max(64),
    action: z.string().min(1).max(64),
    assetIn: z.object({ token: z.string().min(1).max(32), amount: positiveDecimal }).strict(),
    metadata: z
      .object({
        side: z.enum(['buy', 'sell']).optional(),
        type: z.enum(['market', 'limit']).optional(),
        price: positiveDecimal.optional(),
        leverage: z.number().int().min(1).max(20).optional(),
        tokenOut: z.string().min(1).max(32).optional(),
        slippageBps: z.number().int().min(1).max(1000).optional(),
        /** How a limit order rests at a real venue: gtc (default), alo (post-only) or ioc; a market order is ioc. The paper venues fill or refuse at once. */
        timeInForce: z.enum(['gtc', 'alo', 'ioc']).optional(),
      })
      .strict()
      .optional(),
    referenceId: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1 to 128 characters of letters, digits and . _ : -'),
  })
  .strict();

export type ExecutionInstruction = z.infer<typeof instructionSchema>;

/** Drops null and undefined members, so an omitted field and an explicit null hash alike. */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, withoutEmpty(v)]),
    );
  }
  return value;
}

/** Parses an instruction, refusing bad input with 400 naming the field. */
export function parseInstruction(input: unknown): ExecutionInstruction {
  const parsed = instructionSchema.safeParse(withoutEmpty(input));
  if (!parsed.success) throw invalidBody(parsed.error);
  return parsed.data;
}

/** The exact instruction hash: SHA-256 over the RFC 8785 canonical JSON of the request without approvalId. */
export function instructionHash(instruction: ExecutionInstruction): string {
  return createHash('sha256')
    .update(canonicalize(instruction) ?? '')
    .digest('hex');
}
