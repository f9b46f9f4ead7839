import { Decimal } from './decimal.js';

/** Ledger amounts are kept to 8 decimal places, as integers in Redis (exact int64 arithmetic). */
export const LEDGER_DECIMALS = 8;
const SCALE = new Decimal(10).pow(LEDGER_DECIMALS);

/** A signed change in ledger units, rounded toward negative infinity: debits up, credits down. */
export function toUnits(amount: string): bigint {
  return BigInt(new Decimal(amount).mul(SCALE).toFixed(0, Decimal.ROUND_FLOOR));
}

export function fromUnits(units: bigint | string): string {
  return new Decimal(units.toString()).div(SCALE).toString();
}

/** The amount as the ledger keeps it. */
export function quantize(amount: string): string {
  return fromUnits(toUnits(amount));
}
