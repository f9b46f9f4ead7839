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
 * A decimal string greater than zero. One check, so a malformed value is never handed to the
 * decimal library (zod runs later refinements even after a failed regex).
 */
export const positiveDecimal = z
  .string()
  .refine((v) => UNSIGNED_DECIMAL.test(v), 'must be a decimal string such as "1.5"')
  .refine((v) => UNSIGNED_DECIMAL.test(v) && new Decimal(v).gt(0), 'must be greater than zero');
