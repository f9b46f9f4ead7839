import type { Gate, GateContext, StandingContext } from './gate-context.js';
import { notEvaluated, type GateName, type GateVerdict } from './gate-verdict.js';
import { authorityGate } from './gates/authority-gate.js';
import { balanceGate } from './gates/balance-gate.js';
import { certificationGate } from './gates/certification-gate.js';
import { featureFlagGate } from './gates/feature-flag-gate.js';
import { idempotencyGate } from './gates/idempotency-gate.js';
import { quoteGate } from './gates/quote-gate.js';
import { venueGate } from './gates/venue-gate.js';

/**
 * The gates in the order they run, the one statement of that order. The spec's gate list puts
 * idempotency before policy controls and approval: a referenceId already used for another
 * instruction is IDEMPOTENCY_CONFLICT, whatever else is wrong with the request (never a stale
 * quote, whose advice, "preview again", would only meet the same conflict).
 * Execution stops at the first block, a preview reports every gate up to the first block and
 * the rest as not evaluated, capabilities show the standing checks. Fails closed.
 */
export const GATES: readonly Gate[] = [featureFlagGate, certificationGate, venueGate, idempotencyGate, authorityGate, quoteGate, balanceGate];

export const GATE_ORDER: readonly GateName[] = GATES.map((g) => g.name);

/** Execution: the first gate that blocks, or undefined when every gate passes. */
export async function firstBlock(ctx: GateContext): Promise<GateVerdict | undefined> {
  for (const gate of GATES) {
    const verdict = await gate.evaluate(ctx);
    if (verdict.status === 'block') return verdict;
  }
  return undefined;
}

/** Preview: every gate's verdict in order; after the first block the rest are not evaluated. */
export async function allVerdicts(ctx: GateContext): Promise<GateVerdict[]> {
  const verdicts: GateVerdict[] = [];
  let blocked: GateVerdict | undefined;
  for (const gate of GATES) {
    if (blocked) {
      verdicts.push(notEvaluated(gate.name, `Not evaluated: the ${blocked.gate} gate blocks.`));
      continue;
    }
    const verdict = await gate.evaluate(ctx);
    verdicts.push(verdict);
    if (verdict.status === 'block') blocked = verdict;
  }
  return verdicts;
}

/** Capabilities: the blocking standing checks of every gate, in order (the first is what an execution would meet first). */
export async function standingBlocks(ctx: StandingContext): Promise<GateVerdict[]> {
  const verdicts = await Promise.all(GATES.map((g) => g.standing?.(ctx)));
  return verdicts.filter((v): v is GateVerdict => v?.status === 'block');
}
