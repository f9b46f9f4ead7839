import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { buildApp, type GatewayApp } from '../../src/app.js';
import { testConfig, type GatewayConfig } from '../../src/config/gateway-config.js';

export interface VenueGateway {
  app: GatewayApp;
  baseUrl: string;
  get(path: string, init?: RequestInit): Promise<Response>;
  json<T = any>(path: string): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/**
 * A real gateway on the machine's clock whose venues the environment chooses (a real venue
 * pointed at its local fake), started as `npm start` starts one: ingest, streams and history
 * run by themselves.
 */
export async function startVenueGateway(overrides: Partial<GatewayConfig> = {}, logger?: Logger): Promise<VenueGateway> {
  // The tests poll until the venue's data shows: not what the rate limiter is for.
  const config = testConfig({ rateLimits: { publicPerMinute: 1_000_000, keyPerMinute: 1_000_000 }, ...overrides });
  const app = buildApp(config, { logger: logger ?? pino({ level: 'silent' }) });
  await app.start();
  const server = app.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = (path: string, init?: RequestInit) => fetch(baseUrl + path, init);
  return {
    app,
    baseUrl,
    get,
    json: async (path) => {
      const res = await get(path);
      const body = await res.json();
      if (res.status === 429) throw new Error(`rate limited reading ${path}`);
      return { status: res.status, body };
    },
    async close() {
      await app.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` until it holds (or fails after `ms`). */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The most request weight a Hyperliquid fake saw in any sliding minute. */
export function peakWeight(fake: { controls: { requests(): readonly { at: number; weight: number }[] } }): number {
  const requests = fake.controls.requests();
  let peak = 0;
  for (const r of requests) {
    const inMinute = requests.filter((o) => o.at > r.at - 60_000 && o.at <= r.at).reduce((sum, o) => sum + o.weight, 0);
    peak = Math.max(peak, inMinute);
  }
  return peak;
}

/**
 * The variables of a gateway whose perpetuals are Hyperliquid's testnet fake, with orders routed
 * to `account` signed by its API wallet `agentKey`, for gateway account acct-1 (BTC only).
 */
export function hyperliquidOrderEnv(fake: { httpUrl: string; wsUrl: string }, account: string, agentKey: string): Record<string, string> {
  return {
    HYPERLIQUID_NETWORK: 'testnet',
    HYPERLIQUID_API_URL: fake.httpUrl,
    HYPERLIQUID_WS_URL: fake.wsUrl,
    HYPERLIQUID_POLL_MS: '2000',
    HYPERLIQUID_TIMEOUT_MS: '1500',
    HYPERLIQUID_WEIGHT_PER_MINUTE: '1200',
    HYPERLIQUID_COINS: 'BTC',
    HYPERLIQUID_AGENT_KEY: agentKey,
    HYPERLIQUID_ACCOUNT: account,
    HYPERLIQUID_ORDERS_ACCOUNT: 'acct-1',
  };
}
