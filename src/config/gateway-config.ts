import { z } from 'zod';
import type { SourceFault } from '../sources/market-data-source.js';
import { readLimits, type GatewayLimits } from './limits-config.js';

const FAULTS = /^([\w-]+=(none|degraded|down))(,[\w-]+=(none|degraded|down))*$/;

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^\s]+$/, 'expected redis://host:port or rediss://host:port')
    .refine((u) => URL.canParse(u), 'not a valid URL')
    .optional(),
  /** How long the start waits for Redis before it fails (Redis mode). */
  REDIS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(2_000),
  /** On SIGTERM/SIGINT: how long in-flight requests may take to finish before their connections are closed. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** One access-log line per request (src/http/access-log.ts); `false` turns it off. */
  GATEWAY_ACCESS_LOG: z.enum(['true', 'false']).default('true'),
  /** Bearer token GET /metrics requires; unset leaves /metrics open (keep it off the public network). */
  GATEWAY_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Prefix of every Redis key and channel, so several deployments can share one Redis. */
  REDIS_KEY_PREFIX: z.string().min(1).default('gw:'),
  /** Redis mode: how long the ingestion lease lives without renewal (a follower takes over about this long after the leader dies). */
  INGEST_LEASE_TTL_MS: z.coerce.number().int().min(500).max(60_000).default(5_000),
  /** Redis mode: longest a replica's local copy of a snapshot answers without asking Redis (a bound on a missed invalidation). */
  REDIS_LOCAL_COPY_MAX_AGE_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /** How many markets the simulated venues list (today's 10 by default; 200 or 1000 for benchmarks). */
  GATEWAY_SIM_MARKETS: z.coerce.number().int().min(1).max(5_000).default(10),
  FRESHNESS_HEARTBEAT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  /** Replays recorded venues (a folder with one folder per venue, as `npm run record` writes) instead of asking them. */
  GATEWAY_REPLAY: z.string().min(1).optional(),
  /** How fast a replay's streams move (1: as the venue; 10: ten times faster). */
  GATEWAY_REPLAY_SPEED: z.coerce.number().min(0.1).max(100).default(1),
  /** Simulated venue faults at start, such as `paper-perps=down,paper-swap=degraded`. */
  GATEWAY_SIM_FAULTS: z.string().regex(FAULTS, 'expected source=none|degraded|down, comma-separated').optional(),
  /** Where embedded mode keeps accounts and API keys (shared with the keys CLI). */
  GATEWAY_DATA_DIR: z.string().min(1).default('.gateway'),
  /** JSON file of accounts and API-key hashes applied at start. */
  GATEWAY_BOOTSTRAP: z.string().min(1).optional(),
  RATE_LIMIT_PUBLIC_PER_MINUTE: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_KEY_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** The host name wallets must name in sign-in messages (EIP-4361 domain). */
  GATEWAY_SIWE_DOMAIN: z.string().min(1).default('localhost'),
  /** Bearer token of the operator routes; unset disables them. */
  GATEWAY_OPERATOR_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  /** JSON file of execution controls applied at start (feature flags, kill switch, breakers, certifications). */
  GATEWAY_CONTROLS: z.string().min(1).optional(),
  // Signs page cursors; without it a secret is made at start (set it when running several replicas).
  GATEWAY_CURSOR_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
});

export interface GatewayConfig {
  port: number;
  host: string;
  env: 'development' | 'production' | 'test';
  logLevel: string;
  mode: 'embedded' | 'redis';
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  redisConnectTimeoutMs: number;
  shutdownDrainMs: number;
  accessLog: boolean;
  metricsToken: string | undefined;
  ingestLeaseTtlMs: number;
  /** Redis mode: how long a local snapshot copy (and an answer rendered from it) is trusted without an invalidation. */
  redisLocalCopyMaxAgeMs: number;
  simulatedFaults: Record<string, SourceFault>;
  /** Markets the simulated venues list (GATEWAY_SIM_MARKETS). */
  simulatedMarkets: number;
  /**
   * The environment the venues read their own variables from (HYPERLIQUID_NETWORK, ALPACA_KEY_ID,
   * ...): each venue module (src/venues/<id>/) checks its own, so a new venue adds none here.
   */
  venueEnv: Readonly<Record<string, string | undefined>>;
  /** GATEWAY_REPLAY and GATEWAY_REPLAY_SPEED: recorded venues replayed locally (src/composition/replay-venues.ts). */
  replay: { dir: string; speed: number } | undefined;
  /** Venue id → the recordings folder it replays, once the replays run (the venue then says `replay`). */
  replayedVenues: Readonly<Record<string, string>>;
  /** An unchanged market's freshness is re-sent to subscribers after this long (FRESHNESS_HEARTBEAT_MS). */
  freshnessHeartbeatMs: number;
  /** null keeps identities in memory only (tests). */
  dataDir: string | null;
  bootstrapPath: string | undefined;
  rateLimits: { publicPerMinute: number; keyPerMinute: number };
  trustProxy: boolean;
  siweDomain: string;
  operatorToken: string | undefined;
  controlsPath: string | undefined;
  /** Request, GraphQL and socket bounds (src/config/limits-config.ts). */
  limits: GatewayLimits;
  cursorSecret: string | undefined;
}

/** Reads the environment once at start-up; a bad value stops the start with a message naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = env.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const simulatedFaults = Object.fromEntries(
    (e.GATEWAY_SIM_FAULTS ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, SourceFault]),
  );
  return {
    port: e.PORT,
    host: e.HOST,
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    mode: e.REDIS_URL ? 'redis' : 'embedded',
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    redisConnectTimeoutMs: e.REDIS_CONNECT_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    accessLog: e.GATEWAY_ACCESS_LOG === 'true',
    metricsToken: e.GATEWAY_METRICS_TOKEN,
    ingestLeaseTtlMs: e.INGEST_LEASE_TTL_MS,
    redisLocalCopyMaxAgeMs: e.REDIS_LOCAL_COPY_MAX_AGE_MS,
    simulatedFaults,
    simulatedMarkets: e.GATEWAY_SIM_MARKETS,
    venueEnv: { ...source },
    replay: e.GATEWAY_REPLAY ? { dir: e.GATEWAY_REPLAY, speed: e.GATEWAY_REPLAY_SPEED } : undefined,
    replayedVenues: {},
    freshnessHeartbeatMs: e.FRESHNESS_HEARTBEAT_MS,
    dataDir: e.GATEWAY_DATA_DIR,
    bootstrapPath: e.GATEWAY_BOOTSTRAP,
    rateLimits: { publicPerMinute: e.RATE_LIMIT_PUBLIC_PER_MINUTE, keyPerMinute: e.RATE_LIMIT_KEY_PER_MINUTE },
    trustProxy: e.TRUST_PROXY === 'true',
    siweDomain: e.GATEWAY_SIWE_DOMAIN,
    operatorToken: e.GATEWAY_OPERATOR_TOKEN,
    controlsPath: e.GATEWAY_CONTROLS,
    limits: readLimits(source),
    cursorSecret: e.GATEWAY_CURSOR_SECRET,
  };
}

/** A configuration for tests and embedded use, without reading the environment. */
export function testConfig(overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' }), dataDir: null, ...overrides };
}
