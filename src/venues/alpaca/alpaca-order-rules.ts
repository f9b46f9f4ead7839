import type { trading } from '@alpacahq/alpaca-trade-api';
import { Decimal } from '../../domain/decimal.js';
import { invalidField } from '../../errors/error-factories.js';
import type { ExecutionInstruction } from '../../execution/instruction.js';

/** Alpaca has no post-only time in force. */
export const NO_POST_ONLY = 'Alpaca has no post-only orders (timeInForce alo): use gtc or ioc';

/** Fractional orders are DAY orders at Alpaca; the gateway's limit orders rest gtc or ioc. */
export const FRACTIONAL_LIMIT_RULE =
  'a fractional quantity must be a market order: Alpaca takes fractional quantities only in DAY orders, and the gateway sends limit orders gtc or ioc';

/**
 * Alpaca's rules for an order, checked at preview so a refusal names the field before anything is
 * sent: no post-only limit; an asset Alpaca trades now; whole shares unless the asset is
 * fractionable, and a fractional quantity only as a market order (sent DAY). Market orders are
 * always sent DAY, whatever timeInForce says.
 */
export function checkAlpacaRules(i: ExecutionInstruction, asset: trading.Assets): void {
  const limit = i.metadata?.type === 'limit';
  if (limit && i.metadata?.timeInForce === 'alo') throw invalidField('metadata.timeInForce', `is refused: ${NO_POST_ONLY}`);
  if (!asset.tradable || asset.status !== 'active') throw invalidField('assetIn.token', `is refused: Alpaca does not trade ${asset.symbol} now`);
  if (new Decimal(i.assetIn.amount).isInteger()) return;
  if (!asset.fractionable) throw invalidField('assetIn.amount', `must be whole shares: ${asset.symbol} is not fractionable at Alpaca`);
  if (limit) throw invalidField('assetIn.amount', `is refused: ${FRACTIONAL_LIMIT_RULE}`);
}
