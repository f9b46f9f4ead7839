import { Decimal } from '../../domain/decimal.js';
import type { Gate, GateContext } from '../gate-context.js';
import { block, notEvaluated, pass, type GateVerdict } from '../gate-verdict.js';

/** The ledger covers every debit of the quote, and venue rules (lending collateral) hold. */
async function evaluate(ctx: GateContext): Promise<GateVerdict> {
  const { quote } = await ctx.priced();
  if (!quote) return notEvaluated('balance', 'Not priced.');
  const balances = await ctx.balances();
  for (const [token, delta] of Object.entries(quote.changes)) {
    if (quote.mayGoNegative.includes(token)) continue;
    const after = new Decimal(balances[token] ?? 0).plus(delta);
    if (after.isNeg())
      return block('balance', 'INSUFFICIENT_BALANCE', 'ledger', `Needs ${new Decimal(delta).neg()} ${token}; ${balances[token] ?? '0'} available.`);
  }
  if (quote.insufficient) return block('balance', 'INSUFFICIENT_BALANCE', 'collateral', quote.insufficient);
  return pass('balance');
}

export const balanceGate: Gate = { name: 'balance', codes: ['INSUFFICIENT_BALANCE'], evaluate };
