import type { Gate, GateContext } from '../gate-context.js';
import { block, pass, type GateVerdict } from '../gate-verdict.js';
import { PREVIEW_TTL_MS } from '../execution-deps.js';
import type { StoredPreview } from '../stored-preview.js';

/** A stored preview of exactly this instruction, still fresh: what approvals and executions need. */
export function quoteVerdict(preview: StoredPreview | undefined, hash: string, now: number): GateVerdict {
  if (!preview) return block('quote', 'QUOTE_STALE', 'preview', 'No preview of this instruction; preview it first.');
  if (preview.instructionHash !== hash) return block('quote', 'QUOTE_STALE', 'preview', 'The preview for this referenceId was of a different instruction.');
  if (preview.expiresAt <= now) return block('quote', 'QUOTE_STALE', 'preview', 'The preview has expired.');
  return pass('quote', `preview ${preview.id}`);
}

async function evaluate(ctx: GateContext): Promise<GateVerdict> {
  // A preview is the quote: it holds from now for the preview's lifetime.
  if (ctx.mode === 'preview') return pass('quote', `fresh until ${new Date(ctx.now + PREVIEW_TTL_MS).toISOString()}`);
  return quoteVerdict(await ctx.storedPreview(), ctx.hash, ctx.now);
}

/** Preview first: an execution needs a fresh preview of the same instruction (QUOTE_STALE). */
export const quoteGate: Gate = { name: 'quote', codes: ['QUOTE_STALE'], evaluate };
