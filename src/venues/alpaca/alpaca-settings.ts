import { z } from 'zod';
import type { VenueEnv } from '../venue-module.js';
import { checkPollShare, parseVenueEnv, strayVariable, urlVariable } from '../venue-settings.js';

/** The free plan's limit: requests per minute (Alpaca's market-data FAQ; the trading API's is the same). */
export const ALPACA_FREE_REQUESTS_PER_MINUTE = 200;

/**
 * The default symbols: a few of the most traded US names and the S&P 500 ETF. Not the whole
 * universe (about 11,000 symbols): the free plan allows 200 requests a minute and 30 symbols on its
 * stream, so three tiers of history for every symbol would take the budget for hours, and most
 * could never stream. The operator lists what the gateway should serve (ALPACA_SYMBOLS).
 */
const DEFAULT_SYMBOLS = 'AAPL,MSFT,NVDA,SPY,TSLA';
/** Snapshots are asked for this many symbols a request (the query string stays well under any URL limit). */
export const SNAPSHOT_CHUNK = 100;
/** The market clock is read again every this many polls (and whenever its next open or close has passed). */
export const CLOCK_EVERY_POLLS = 5;

const HOSTS = {
  data: 'https://data.alpaca.markets',
  stream: 'wss://stream.data.alpaca.markets',
  paper: 'https://paper-api.alpaca.markets',
  live: 'https://api.alpaca.markets',
} as const;

// A credential is never echoed: only its presence is checked.
const credential = z.string().min(1, 'must not be empty').optional();
const env = z.object({
  /** The operator's key pair turns the venue on (free plan: paper keys are enough for market data). */
  ALPACA_KEY_ID: credential,
  ALPACA_SECRET_KEY: credential,
  /** Whose keys: paper (the default) or live; only the market clock is read from that trading host. Orders stay paper. */
  ALPACA_PAPER: z.enum(['true', 'false']).default('true'),
  ALPACA_TRADING_URL: urlVariable(/^https?:$/),
  ALPACA_DATA_URL: urlVariable(/^https?:$/),
  /** The data stream's host; `/v2/<feed>` is appended, as the SDK does. */
  ALPACA_DATA_STREAM_URL: urlVariable(/^wss?:$/),
  /** iex: the free plan's feed (the IEX exchange alone); sip: every US exchange (a paid plan). */
  ALPACA_FEED: z.enum(['iex', 'sip']).default('iex'),
  ALPACA_SYMBOLS: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9.]{0,9}(,[A-Za-z][A-Za-z0-9.]{0,9})*$/, 'expected symbols separated by commas, such as AAPL,MSFT,BRK.B')
    .default(DEFAULT_SYMBOLS),
  /** Requests per minute this gateway may spend (default half the free plan's 200; Algo Trader Plus allows 10,000). */
  ALPACA_REQUESTS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(10)
    .max(10_000)
    .default(ALPACA_FREE_REQUESTS_PER_MINUTE / 2),
  /** How often snapshots (daily figures, and prices between streamed trades) are polled. */
  ALPACA_POLL_MS: z.coerce.number().int().min(1_000).max(300_000).default(5_000),
  ALPACA_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
  /** Where orders go: unset, filled on paper in the gateway; `paper`, routed to Alpaca paper trading. Live trading is not supported. */
  ALPACA_ORDERS: z
    .enum(['paper'], {
      error: 'live trading is not supported: set paper (orders routed to Alpaca paper trading) or leave it unset (paper fills in the gateway)',
    })
    .optional(),
  /** The gateway account whose orders the Alpaca paper account takes (ALPACA_ORDERS=paper). */
  ALPACA_ORDERS_ACCOUNT: z.string().trim().min(1, 'must not be empty').max(128).optional(),
});

export interface AlpacaSettings {
  keyId: string;
  secret: string;
  network: 'paper' | 'live';
  tradingUrl: string;
  dataUrl: string;
  /** The stock stream's URL (host and `/v2/<feed>`). */
  streamUrl: string;
  feed: 'iex' | 'sip';
  symbols: readonly string[];
  requestsPerMinute: number;
  pollMs: number;
  timeoutMs: number;
  /** The trading stream (`trade_updates`): the trading host's `/stream`, as Alpaca serves it. */
  tradingStreamUrl: string;
  /** Orders routed to Alpaca paper trading for one gateway account (ALPACA_ORDERS=paper); undefined: paper fills in the gateway. */
  orders: { account: string } | undefined;
}

/** Requests a minute the polls spend: the snapshots, and the clock every few polls. */
export function pollRequestsPerMinute(settings: { pollMs: number; symbols: readonly string[] }): number {
  const polls = Math.ceil(60_000 / settings.pollMs);
  return Math.ceil(polls * (Math.ceil(settings.symbols.length / SNAPSHOT_CHUNK) + 1 / CLOCK_EVERY_POLLS));
}

/**
 * Alpaca's variables; undefined when no key is set (the equities stay simulated). A variable set
 * wrong, one key without the other, or another ALPACA_* without the keys throws naming it.
 */
export function alpacaSettings(source: VenueEnv): AlpacaSettings | undefined {
  const e = parseVenueEnv(env, source);
  if (e.ALPACA_KEY_ID === undefined || e.ALPACA_SECRET_KEY === undefined) {
    if (e.ALPACA_KEY_ID !== undefined) throw new Error('Invalid configuration: ALPACA_SECRET_KEY is missing (ALPACA_KEY_ID is set; Alpaca needs both)');
    if (e.ALPACA_SECRET_KEY !== undefined) throw new Error('Invalid configuration: ALPACA_KEY_ID is missing (ALPACA_SECRET_KEY is set; Alpaca needs both)');
    const stray = strayVariable('ALPACA_', source);
    if (stray) throw new Error(`Invalid configuration: ${stray} is set but ALPACA_KEY_ID and ALPACA_SECRET_KEY are missing`);
    return undefined;
  }
  const symbols = [...new Set(e.ALPACA_SYMBOLS.toUpperCase().split(','))];
  checkPollShare(
    { variable: 'ALPACA_POLL_MS', ms: e.ALPACA_POLL_MS, perMinute: pollRequestsPerMinute({ pollMs: e.ALPACA_POLL_MS, symbols }) },
    { variable: 'ALPACA_REQUESTS_PER_MINUTE', perMinute: e.ALPACA_REQUESTS_PER_MINUTE, unit: 'requests' },
  );
  const network = e.ALPACA_PAPER === 'true' ? 'paper' : 'live';
  const tradingUrl = e.ALPACA_TRADING_URL ?? HOSTS[network];
  return {
    keyId: e.ALPACA_KEY_ID,
    secret: e.ALPACA_SECRET_KEY,
    network,
    tradingUrl,
    dataUrl: e.ALPACA_DATA_URL ?? HOSTS.data,
    streamUrl: `${(e.ALPACA_DATA_STREAM_URL ?? HOSTS.stream).replace(/\/+$/, '')}/v2/${e.ALPACA_FEED}`,
    feed: e.ALPACA_FEED,
    symbols,
    requestsPerMinute: e.ALPACA_REQUESTS_PER_MINUTE,
    pollMs: e.ALPACA_POLL_MS,
    timeoutMs: e.ALPACA_TIMEOUT_MS,
    tradingStreamUrl: `${tradingUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/stream`,
    orders: ordersOf(e, network, tradingUrl),
  };
}

/**
 * Where orders go. Only paper trading is ever routed: ALPACA_ORDERS=paper needs paper keys
 * (ALPACA_PAPER=true) and a trading host other than Alpaca's live one, and names the one gateway
 * account the Alpaca account trades for; ALPACA_ORDERS_ACCOUNT without it is a mistake.
 */
function ordersOf(e: { ALPACA_ORDERS?: 'paper' | undefined; ALPACA_ORDERS_ACCOUNT?: string | undefined }, network: 'paper' | 'live', tradingUrl: string) {
  if (e.ALPACA_ORDERS === undefined) {
    if (e.ALPACA_ORDERS_ACCOUNT !== undefined)
      throw new Error('Invalid configuration: ALPACA_ORDERS_ACCOUNT is set but ALPACA_ORDERS is not (set ALPACA_ORDERS=paper to route orders)');
    return undefined;
  }
  if (network !== 'paper') throw new Error('Invalid configuration: ALPACA_ORDERS=paper needs paper keys (ALPACA_PAPER=true): live trading is not supported');
  if (new URL(tradingUrl).host === new URL(HOSTS.live).host)
    throw new Error("Invalid configuration: ALPACA_TRADING_URL is Alpaca's live host while ALPACA_ORDERS=paper: live trading is not supported");
  if (e.ALPACA_ORDERS_ACCOUNT === undefined)
    throw new Error('Invalid configuration: ALPACA_ORDERS_ACCOUNT is missing (ALPACA_ORDERS=paper routes the orders of one gateway account)');
  return { account: e.ALPACA_ORDERS_ACCOUNT };
}
