import { readFileSync } from 'node:fs';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { VenueEnv } from '../venue-module.js';

/**
 * What orders routed to Hyperliquid need: the API wallet that signs them (an agent the master
 * account approved), the master account they trade for, and the one gateway account whose
 * orders they are. Never the key itself: it lives only inside the viem account object (its
 * `sign` functions close over it; it is not one of its properties), so logging or serialising
 * these settings shows the addresses and nothing else.
 */
export interface HyperliquidOrderSettings {
  /** The master account (public address) the orders trade for: HYPERLIQUID_ACCOUNT. */
  account: `0x${string}`;
  /** The gateway account whose orders this venue account takes: HYPERLIQUID_ORDERS_ACCOUNT. */
  boundAccount: string;
  /** The API wallet's signer (viem local account); its address is the agent's. */
  signer: PrivateKeyAccount;
}

/** The order variables, each checked by hand so that no message can ever carry the key's value. */
export const ORDER_VARIABLES = [
  'HYPERLIQUID_AGENT_KEY',
  'HYPERLIQUID_AGENT_KEY_FILE',
  'HYPERLIQUID_ACCOUNT',
  'HYPERLIQUID_ORDERS_ACCOUNT',
  'HYPERLIQUID_MAINNET_ORDERS',
] as const;

const fail = (problem: string) => new Error(`Invalid configuration: ${problem}`);

/** The API wallet's key, from the variable or the file (read now, trimmed); its value is never part of an error. */
function agentKey(source: VenueEnv): string | undefined {
  const inline = source.HYPERLIQUID_AGENT_KEY;
  const file = source.HYPERLIQUID_AGENT_KEY_FILE;
  if (inline !== undefined && file !== undefined) throw fail('HYPERLIQUID_AGENT_KEY and HYPERLIQUID_AGENT_KEY_FILE are both set: set one');
  if (file !== undefined) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (err) {
      throw fail(`HYPERLIQUID_AGENT_KEY_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return inline?.trim();
}

/**
 * Hyperliquid's order variables: undefined when no agent key is set (orders stay paper). With a
 * key, HYPERLIQUID_ACCOUNT and HYPERLIQUID_ORDERS_ACCOUNT are required; on mainnet the start is
 * refused unless HYPERLIQUID_MAINNET_ORDERS=yes says real-money orders are meant.
 */
export function hyperliquidOrderSettings(source: VenueEnv, network: 'mainnet' | 'testnet'): HyperliquidOrderSettings | undefined {
  const key = agentKey(source);
  const mainnetOrders = source.HYPERLIQUID_MAINNET_ORDERS;
  if (mainnetOrders !== undefined && mainnetOrders !== 'yes') throw fail('HYPERLIQUID_MAINNET_ORDERS: expected yes (or leave it unset)');
  if (key === undefined) {
    const stray = (['HYPERLIQUID_ACCOUNT', 'HYPERLIQUID_ORDERS_ACCOUNT', 'HYPERLIQUID_MAINNET_ORDERS'] as const).find((v) => source[v] !== undefined);
    if (stray) throw fail(`${stray} is set but HYPERLIQUID_AGENT_KEY (or HYPERLIQUID_AGENT_KEY_FILE) is not`);
    return undefined;
  }
  const from = source.HYPERLIQUID_AGENT_KEY_FILE !== undefined ? 'HYPERLIQUID_AGENT_KEY_FILE' : 'HYPERLIQUID_AGENT_KEY';
  const malformed = fail(`${from} must hold the API wallet's private key: 0x and 64 hex digits`);
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw malformed;
  let signer: PrivateKeyAccount;
  try {
    signer = privateKeyToAccount(key as `0x${string}`);
  } catch {
    throw malformed; // not a valid secp256k1 key (zero, or past the curve order)
  }
  const account = source.HYPERLIQUID_ACCOUNT;
  if (account === undefined) throw fail(`HYPERLIQUID_ACCOUNT is required with ${from}: the master account's address the API wallet trades for`);
  if (!/^0x[0-9a-fA-F]{40}$/.test(account)) throw fail('HYPERLIQUID_ACCOUNT: expected an address (0x and 40 hex digits)');
  const boundAccount = source.HYPERLIQUID_ORDERS_ACCOUNT;
  if (boundAccount === undefined || boundAccount.trim() === '')
    throw fail(`HYPERLIQUID_ORDERS_ACCOUNT is required with ${from}: the gateway account whose orders go to this venue account`);
  if (network === 'mainnet' && mainnetOrders !== 'yes') {
    throw fail(
      `HYPERLIQUID_NETWORK=mainnet with ${from} would send real orders with real funds: set HYPERLIQUID_MAINNET_ORDERS=yes to mean it, or use testnet`,
    );
  }
  return { account: account.toLowerCase() as `0x${string}`, boundAccount: boundAccount.trim(), signer };
}
