import { Decimal } from '../../domain/decimal.js';
import type { Gate, GateContext } from '../gate-context.js';
import { block, pass, type GateVerdict } from '../gate-verdict.js';
import { APPROVED_PRICE_BOUND, PREVIEW_TTL_MS } from '../execution-deps.js';
import type { StoredPreview } from '../stored-preview.js';
import type { Quote } from '../venues/execution-venue.js';

const stale = (reason: string) => block('quote', 'QUOTE_STALE', 'preview', reason);
const iso = (ms: number) => new Date(ms).toISOString();

/** A stored preview of exactly this instruction, still fresh: what approvals and executions need. */
export function quoteVerdict(preview: StoredPreview | undefined, hash: string, now: number): GateVerdict {
  if (!preview) return stale('No preview of this instruction under this referenceId; preview it first.');
  if (preview.instructionHash !== hash) return stale('The preview for this referenceId was of a different instruction.');
  if (preview.expiresAt <= now) return stale(`The preview expired at ${iso(preview.expiresAt)}; preview it again.`);
  return pass('quote', `preview ${preview.id}`);
}

/**
 * An approval given while its preview was fresh carries the preview's bound for the approval's
 * lifetime: the swap's minAmountOut, or the previewed price moved by at most APPROVED_PRICE_BOUND
 * against the order. Null when the market is within it, else the bound that failed.
 */
function outsideApprovedBound(previewed: Quote, now: Quote): string | null {
  if (previewed.minAmountOut !== null) {
    return now.amountOut !== null && new Decimal(now.amountOut).lt(previewed.minAmountOut)
      ? `the swap would return ${now.amountOut}, below the previewed minAmountOut ${previewed.minAmountOut}`
      : null;
  }
  if (previewed.price === null || now.price === null || previewed.side === null) return null;
  const bound = new Decimal(1).plus(previewed.side === 'buy' ? APPROVED_PRICE_BOUND : new Decimal(APPROVED_PRICE_BOUND).neg());
  const limit = new Decimal(previewed.price).mul(bound);
  const worse = previewed.side === 'buy' ? new Decimal(now.price).gt(limit) : new Decimal(now.price).lt(limit);
  return worse ? `the price is ${now.price}, beyond the previewed ${previewed.price} by more than ${new Decimal(APPROVED_PRICE_BOUND).mul(100)}%` : null;
}

async function evaluate(ctx: GateContext): Promise<GateVerdict> {
  // A preview is the quote: it holds from now for the preview's lifetime.
  if (ctx.mode === 'preview') return pass('quote', `fresh until ${iso(ctx.now + PREVIEW_TTL_MS)}`);
  const preview = await ctx.storedPreview();
  const verdict = quoteVerdict(preview, ctx.hash, ctx.now);
  const approval = ctx.authority.approval;
  if (verdict.status === 'pass' || !preview || preview.instructionHash !== ctx.hash || !approval || !preview.quote) return verdict;
  if (approval.createdAt > preview.expiresAt) return verdict;
  const { quote } = await ctx.priced();
  if (!quote) return verdict;
  const failed = outsideApprovedBound(preview.quote, quote);
  if (failed) return stale(`The preview expired at ${iso(preview.expiresAt)} and the approved bound no longer holds: ${failed}; preview it again.`);
  return pass('quote', `preview ${preview.id}, within its approved bound until the approval expires`);
}

/** Preview first: an execution needs a fresh preview of the same instruction, or an approval within its bound (QUOTE_STALE). */
export const quoteGate: Gate = { name: 'quote', codes: ['QUOTE_STALE'], evaluate };
