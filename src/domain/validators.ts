import { z } from 'zod';
import { Decimal } from './decimal.js';

/** A decimal as the API carries it: digits, an optional fraction, never exponent notation or separators. */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;
const UNSIGNED_DECIMAL = /^\d+(\.\d+)?$/;
const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A 0x-prefixed 20-byte hex address (EIP-55 checksum not required). */
export const isWalletAddress = (value: string): boolean => WALLET_ADDRESS.test(value);

export const walletAddress = z.string().regex(WALLET_ADDRESS, 'must be a 0x-prefixed 20-byte hex address');

/** A non-negative decimal string such as "1.5". */
export const decimalString = z.string().regex(UNSIGNED_DECIMAL, 'must be a decimal string such as "1.5"');

/**
 * The widest amount any venue takes: 18 integer digits (well past any venue's size limit) and 18
 * fraction digits (an ERC-20 token's precision, the finest of the venues). Past it an amount is a
 * 400 naming the field, never a number rounded or printed in exponent form.
 */
export const AMOUNT_BOUNDS = { integerDigits: 18, fractionDigits: 18 } as const;
const BOUNDED_AMOUNT = new RegExp(`^\\d{1,${AMOUNT_BOUNDS.integerDigits}}(\\.\\d{1,${AMOUNT_BOUNDS.fractionDigits}})?$`);

/**
 * A decimal string greater than zero, within AMOUNT_BOUNDS. One check each, so a malformed value is
 * never handed to the decimal library (zod runs later refinements even after a failed regex).
 */
export const positiveDecimal = z
  .string()
  .refine((v) => UNSIGNED_DECIMAL.test(v), 'must be a decimal string such as "1.5"')
  .refine(
    (v) => !UNSIGNED_DECIMAL.test(v) || BOUNDED_AMOUNT.test(v.replace(/^0+(?=\d)/, '')),
    `must have at most ${AMOUNT_BOUNDS.integerDigits} integer digits and ${AMOUNT_BOUNDS.fractionDigits} decimal places`,
  )
  .refine((v) => BOUNDED_AMOUNT.test(v.replace(/^0+(?=\d)/, '')) && new Decimal(v).gt(0), 'must be greater than zero');

/**
 * A decimal as the API writes it: plain digits, never exponent notation, whatever the library
 * printed (decimal.js switches to exponents past its toExpPos/toExpNeg).
 */
export function plainDecimal(value: string | number | Decimal): string {
  const text = String(value);
  return DECIMAL_PATTERN.test(text) ? text : new Decimal(text).toFixed();
}
