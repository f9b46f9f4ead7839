import { z } from 'zod';
import type { VenueEnv } from '../venue-module.js';
import { pollWeightPerMinute } from './hyperliquid-weights.js';

/** The venue's published limit: request weight per minute per IP address. */
export const HYPERLIQUID_WEIGHT_LIMIT = 1_200;

const URLS = {
  mainnet: { api: 'https://api.hyperliquid.xyz', ws: 'wss://api.hyperliquid.xyz/ws' },
  testnet: { api: 'https://api.hyperliquid-testnet.xyz', ws: 'wss://api.hyperliquid-testnet.xyz/ws' },
} as const;

const url = (protocols: RegExp) =>
  z
    .string()
    .refine((u) => URL.canParse(u) && protocols.test(new URL(u).protocol), `expected a ${protocols.source.replace(/[\\^$()]/g, '')} URL`)
    .optional();

const env = z.object({
  /** Turns the venue on: mainnet or testnet. */
  HYPERLIQUID_NETWORK: z.enum(['mainnet', 'testnet']).optional(),
  HYPERLIQUID_API_URL: url(/^https?:$/),
  HYPERLIQUID_WS_URL: url(/^wss?:$/),
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
}

/** Hyperliquid's variables; undefined when HYPERLIQUID_NETWORK is unset (the perpetuals stay simulated). */
export function hyperliquidSettings(source: VenueEnv): HyperliquidSettings | undefined {
  const parsed = env.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const e = parsed.data;
  if (!e.HYPERLIQUID_NETWORK) {
    const stray = Object.keys(source).find((k) => k.startsWith('HYPERLIQUID_') && source[k] !== undefined);
    if (stray) throw new Error(`Invalid configuration: ${stray} is set but HYPERLIQUID_NETWORK is not (mainnet or testnet)`);
    return undefined;
  }
  const polls = pollWeightPerMinute({ pollMs: e.HYPERLIQUID_POLL_MS });
  if (polls > e.HYPERLIQUID_WEIGHT_PER_MINUTE * 0.75) {
    throw new Error(
      `Invalid configuration: HYPERLIQUID_POLL_MS=${e.HYPERLIQUID_POLL_MS} spends ${polls} weight a minute on polls alone, ` +
        `more than three quarters of HYPERLIQUID_WEIGHT_PER_MINUTE=${e.HYPERLIQUID_WEIGHT_PER_MINUTE} (history needs the rest): poll less often or raise the budget`,
    );
  }
  return {
    network: e.HYPERLIQUID_NETWORK,
    apiUrl: e.HYPERLIQUID_API_URL ?? URLS[e.HYPERLIQUID_NETWORK].api,
    wsUrl: e.HYPERLIQUID_WS_URL ?? URLS[e.HYPERLIQUID_NETWORK].ws,
    weightPerMinute: e.HYPERLIQUID_WEIGHT_PER_MINUTE,
    pollMs: e.HYPERLIQUID_POLL_MS,
    timeoutMs: e.HYPERLIQUID_TIMEOUT_MS,
    coins: e.HYPERLIQUID_COINS ? new Set(e.HYPERLIQUID_COINS.split(',')) : undefined,
  };
}
