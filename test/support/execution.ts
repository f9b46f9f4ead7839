import type { GatewayClient } from './wallet.js';

/** A weekday mid-session, so equities trade too. */
export const SESSION_TIME = Date.parse('2026-11-18T16:00:00Z');

export const perpOrder = (referenceId: string, overrides: Record<string, unknown> = {}) => ({
  protocol: 'paper-perps',
  action: 'place_order',
  assetIn: { token: 'BTC', amount: '0.1' },
  metadata: { side: 'buy', type: 'market' },
  referenceId,
  ...overrides,
});

/** A JSON request with a bearer token. */
export function call(gw: GatewayClient, method: string, path: string, token: string | undefined, body?: unknown): Promise<Response> {
  return gw.get(path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/**
 * An agent session for the full key on BTC perps, valid for an hour from `now`; by default with
 * caps no test order reaches, `overrides` for tests of the caps.
 */
export const btcPerpSession = (overrides: Record<string, unknown> = {}, now = Date.now()) => ({
  apiKeyId: 'k-full',
  protocols: ['paper-perps'],
  actions: ['place_order'],
  assets: ['BTC'],
  maxOrderNotional: '1000000',
  maxPeriodNotional: '10000000',
  periodSeconds: 3600,
  expiresAt: new Date(now + 3_600_000).toISOString(),
  ...overrides,
});
