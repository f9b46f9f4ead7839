import { expect } from 'vitest';
import { startChainReplay, type ChainReplay, type RecordedRpc } from '../../src/venues/chain/replay/start.js';
import { eventually, startVenueGateway, type VenueGateway } from './venue-gateway.js';

/**
 * The tests' own arithmetic for what the chain venues must publish, written apart from the
 * gateway's (fixed-point bigints where the gateway uses decimal.js), so a wrong formula on either
 * side fails a test.
 */

/** n/d rounded half up to `decimals` places, as a fixed decimal string. */
export function fixedRatio(n: bigint, d: bigint, decimals: number): string {
  const units = (2n * n * 10n ** BigInt(decimals) + d) / (2n * d);
  const s = units.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? s : `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`;
}

const ONE = 10n ** 60n;

/** Aave's APY of a ray APR, in percent to 4 places: (1 + r/31536000)^31536000 − 1 by squaring in 60-digit fixed point. */
export function expectedApyPercent(rayRate: bigint): string {
  const secondsPerYear = 31_536_000n;
  let base = ONE + (rayRate * ONE) / (10n ** 27n * secondsPerYear);
  let result = ONE;
  for (let e = secondsPerYear; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) / ONE;
    base = (base * base) / ONE;
  }
  return fixedRatio((result - ONE) * 100n, ONE, 4);
}

/** The most requests the fake saw in any sliding minute. */
export function peakPerMinute(requests: readonly RecordedRpc[]): number {
  let peak = 0;
  for (const r of requests) peak = Math.max(peak, requests.filter((o) => o.at > r.at - 60_000 && o.at <= r.at).length);
  return peak;
}

export async function sourceOf(gw: VenueGateway, id: string): Promise<any> {
  const status = await gw.json('/api/v1/public/status');
  return status.body.data.sources.find((s: any) => s.sourceId === id);
}

/** Waits until the source's status is `status`, and answers its health record. */
export function sourceBecomes(gw: VenueGateway, id: string, status: string, ms = 8_000): Promise<any> {
  return eventually(
    async () => {
      const s = await sourceOf(gw, id);
      return s?.status === status ? s : undefined;
    },
    ms,
    `${id} ${status}`,
  );
}

/** Public reads during a fault: only the contract's statuses (200, and 404 for a pool or reserve without a book), never a 5xx. */
export async function expectContractStatuses(gw: VenueGateway, market: string): Promise<void> {
  for (const path of [
    '/api/v1/public/markets',
    `/api/v1/public/markets/${market}`,
    `/api/v1/public/markets/${market}/history?resolution=1m&limit=5`,
    '/api/v1/public/status',
  ]) {
    expect((await gw.get(path)).status, path).toBe(200);
  }
  expect((await gw.get(`/api/v1/public/markets/${market}/orderbook`)).status).toBe(404);
}

/** The venue's common variables for a test: a fast poll, a short timeout, a budget. */
export const chainEnv = (prefix: 'AAVE' | 'UNISWAP', url: string, budget: number, extra: Record<string, string> = {}) => ({
  [`${prefix}_RPC_URL`]: url,
  [`${prefix}_POLL_MS`]: '500',
  [`${prefix}_TIMEOUT_MS`]: '1500',
  [`${prefix}_REQUESTS_PER_MINUTE`]: String(budget),
  ...extra,
});

/** A fake node and a gateway reading one chain venue from it, configured by the venue's variables; closed together. */
export interface ChainVenueUnderTest {
  fake: ChainReplay;
  gw: VenueGateway;
  close(): Promise<void>;
}

export async function startChainVenue(
  prefix: 'AAVE' | 'UNISWAP',
  options: { budget: number; blockTimeMs: number | null; chainId?: number; bootstrapPath?: string; env?: Record<string, string> },
): Promise<ChainVenueUnderTest> {
  const fake = await startChainReplay({ blockTimeMs: options.blockTimeMs, ...(options.chainId ? { chainId: options.chainId } : {}) });
  const gw = await startVenueGateway({
    ...(options.bootstrapPath ? { bootstrapPath: options.bootstrapPath } : {}),
    venueEnv: chainEnv(prefix, fake.url, options.budget, options.env),
  });
  return {
    fake,
    gw,
    async close() {
      await gw.close();
      await fake.close();
    },
  };
}

/**
 * Mines the pending state once the head's second has passed, so the block's time is not in the
 * future (the fake gives a second block within one second the next second's time, which the
 * gateway would read as a venue clock ahead of its own and clamp).
 */
export async function mineInItsOwnSecond(fake: ChainReplay): Promise<ReturnType<ChainReplay['controls']['mine']>> {
  const after = (fake.controls.head().timestamp + 1) * 1_000;
  if (Date.now() < after) await new Promise((resolve) => setTimeout(resolve, after - Date.now()));
  return fake.controls.mine();
}
