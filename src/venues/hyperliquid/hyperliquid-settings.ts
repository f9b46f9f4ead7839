import { z } from 'zod';
import type { VenueEnv } from '../venue-module.js';
import { checkPollShare, parseVenueEnv, strayVariable, urlVariable } from '../venue-settings.js';
import { hyperliquidOrderSettings, type HyperliquidOrderSettings } from './hyperliquid-order-settings.js';
import { pollWeightPerMinute } from './hyperliquid-weights.js';

/** The venue's published limit: request weight per minute per IP address. */
export const HYPERLIQUID_WEIGHT_LIMIT = 1_200;

const URLS = {
  mainnet: { api: 'https://api.hyperliquid.xyz', ws: 'wss://api.hyperliquid.xyz/ws' },
  testnet: { api: 'https://api.hyperliquid-testnet.xyz', ws: 'wss://api.hyperliquid-testnet.xyz/ws' },
} as const;

const env = z.object({
  /** Turns the venue on: mainnet or testnet. */
  HYPERLIQUID_NETWORK: z.enum(['mainnet', 'testnet']).optional(),
  HYPERLIQUID_API_URL: urlVariable(/^https?:$/),
  HYPERLIQUID_WS_URL: urlVariable(/^wss?:$/),
  /** Request weight per minute this gateway may spend (default half the venue's 1,200). */
  HYPERLIQUID_WEIGHT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(60)
    .max(HYPERLIQUID_WEIGHT_LIMIT)
    .default(HYPERLIQUID_WEIGHT_LIMIT / 2),
  /** How often contexts (prices, funding, open interest) are polled; books, mids and candles stream. */
  HYPERLIQUID_POLL_MS: z.coerce.number().int().min(1_000).max(60_000).default(5_000),
  HYPERLIQUID_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
  /** Only these coins (comma-separated), instead of every listed perpetual. */
  HYPERLIQUID_COINS: z
    .string()
    .regex(/^[\w-]+(,[\w-]+)*$/, 'expected coins separated by commas, such as BTC,ETH')
    .optional(),
});

export interface HyperliquidSettings {
  network: 'mainnet' | 'testnet';
  apiUrl: string;
  wsUrl: string;
  weightPerMinute: number;
  pollMs: number;
  timeoutMs: number;
  coins: ReadonlySet<string> | undefined;
  /** Orders routed to the venue (an API wallet's key is set), else undefined: orders stay paper. */
  orders: HyperliquidOrderSettings | undefined;
}

/** Hyperliquid's variables; undefined when HYPERLIQUID_NETWORK is unset (the perpetuals stay simulated). */
export function hyperliquidSettings(source: VenueEnv): HyperliquidSettings | undefined {
  const e = parseVenueEnv(env, source);
  if (!e.HYPERLIQUID_NETWORK) {
    const stray = strayVariable('HYPERLIQUID_', source);
    if (stray) throw new Error(`Invalid configuration: ${stray} is set but HYPERLIQUID_NETWORK is not (mainnet or testnet)`);
    return undefined;
  }
  checkPollShare(
    { variable: 'HYPERLIQUID_POLL_MS', ms: e.HYPERLIQUID_POLL_MS, perMinute: pollWeightPerMinute({ pollMs: e.HYPERLIQUID_POLL_MS }) },
    { variable: 'HYPERLIQUID_WEIGHT_PER_MINUTE', perMinute: e.HYPERLIQUID_WEIGHT_PER_MINUTE, unit: 'weight' },
  );
  return {
    network: e.HYPERLIQUID_NETWORK,
    apiUrl: e.HYPERLIQUID_API_URL ?? URLS[e.HYPERLIQUID_NETWORK].api,
    wsUrl: e.HYPERLIQUID_WS_URL ?? URLS[e.HYPERLIQUID_NETWORK].ws,
    weightPerMinute: e.HYPERLIQUID_WEIGHT_PER_MINUTE,
    pollMs: e.HYPERLIQUID_POLL_MS,
    timeoutMs: e.HYPERLIQUID_TIMEOUT_MS,
    coins: e.HYPERLIQUID_COINS ? new Set(e.HYPERLIQUID_COINS.split(',')) : undefined,
    orders: hyperliquidOrderSettings(source, e.HYPERLIQUID_NETWORK),
  };
}
