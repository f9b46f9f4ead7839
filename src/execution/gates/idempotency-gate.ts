import type { Gate, GateContext } from '../gate-context.js';
import { block, pass, type GateVerdict } from '../gate-verdict.js';

/**
 * A referenceId executes once. A same-body replay of a recorded execution is answered before the
 * gates (README: Idempotency); what reaches this gate is a conflict: the referenceId was executed
 * with another instruction (or, for a preview, executed at all). A claim held by a concurrent
 * request is found when the execution claims the referenceId, after every gate passed.
 */
async function evaluate(ctx: GateContext): Promise<GateVerdict> {
  const previous = await ctx.previousExecution();
  if (!previous) return pass('idempotency');
  if (ctx.mode === 'preview') return block('idempotency', 'IDEMPOTENCY_CONFLICT', 'executed', `This referenceId was already executed (${previous.id}).`);
  if (previous.instructionHash !== ctx.hash)
    return block('idempotency', 'IDEMPOTENCY_CONFLICT', 'executed', 'This referenceId was executed with a different instruction.');
  return pass('idempotency');
}

export const idempotencyGate: Gate = { name: 'idempotency', codes: ['IDEMPOTENCY_CONFLICT'], evaluate };
