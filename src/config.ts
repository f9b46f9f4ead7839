import { z } from 'zod';
import type { SourceFault } from './venues/market-data-source.js';

const FAULTS = /^([\w-]+=(none|degraded|down))(,[\w-]+=(none|degraded|down))*$/;

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REDIS_URL: z.string().url().optional(),
  /** Simulated venue faults at start, such as `paper-perps=down,paper-swap=degraded`. */
  GATEWAY_SIM_FAULTS: z.string().regex(FAULTS, 'expected source=none|degraded|down, comma-separated').optional(),
  /** Where embedded mode keeps accounts and API keys (shared with the keys CLI). */
  GATEWAY_DATA_DIR: z.string().min(1).default('.gateway'),
  /** JSON file of accounts and API-key hashes applied at start. */
  GATEWAY_BOOTSTRAP: z.string().min(1).optional(),
  RATE_LIMIT_PUBLIC_PER_MINUTE: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_KEY_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
});

export interface GatewayConfig {
  port: number;
  host: string;
  env: 'development' | 'production' | 'test';
  logLevel: string;
  mode: 'embedded' | 'redis';
  redisUrl: string | undefined;
  simulatedFaults: Record<string, SourceFault>;
  /** null keeps identities in memory only (tests). */
  dataDir: string | null;
  bootstrapPath: string | undefined;
  rateLimits: { publicPerMinute: number; keyPerMinute: number };
  trustProxy: boolean;
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
    (e.GATEWAY_SIM_FAULTS ?? '').split(',').filter(Boolean).map((pair) => pair.split('=') as [string, SourceFault]),
  );
  return {
    port: e.PORT,
    host: e.HOST,
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    mode: e.REDIS_URL ? 'redis' : 'embedded',
    redisUrl: e.REDIS_URL,
    simulatedFaults,
    dataDir: e.GATEWAY_DATA_DIR,
    bootstrapPath: e.GATEWAY_BOOTSTRAP,
    rateLimits: { publicPerMinute: e.RATE_LIMIT_PUBLIC_PER_MINUTE, keyPerMinute: e.RATE_LIMIT_KEY_PER_MINUTE },
    trustProxy: e.TRUST_PROXY === 'true',
  };
}

/** A configuration for tests and embedded use, without reading the environment. */
export function testConfig(overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' }), dataDir: null, ...overrides };
}
