import { Decimal } from '../src/domain/decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
beforeAll(async () => (gw = await startGateway()));
afterAll(() => gw.close());

const book = (asset: string) => gw.get(`/api/v1/public/markets/${asset}/orderbook`);

describe('GET /api/v1/public/markets/{asset}/orderbook', () => {
  it('returns at most 100 levels a side with cumulative sizes, best first', async () => {
    const res = await book('BTC');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.freshness).toMatchObject({ stale: false, sourceStatus: 'healthy' });
    const { bids, asks } = body.data;
    expect(bids.length).toBe(100); // the venue publishes 120
    expect(asks.length).toBe(100);
    expect(new Decimal(bids[0].price).lt(asks[0].price)).toBe(true);
    for (const [side, dir] of [
      [bids, -1],
      [asks, 1],
    ] as const) {
      let sum = new Decimal(0);
      side.forEach((level: any, i: number) => {
        sum = sum.plus(level.size);
        expect(level.cumulativeSize).toBe(sum.toFixed(4));
        if (i > 0) expect(new Decimal(level.price).cmp(side[i - 1].price)).toBe(dir);
      });
    }
  });

  it('uses the 5 000 ms max age: stale after five seconds without a new snapshot', async () => {
    gw.clock.advance(5_001);
    const res = await book('BTC-PERP');
    const body = await res.json();
    expect(body.freshness).toMatchObject({ stale: true, staleReason: 'max_age_exceeded' });
    expect(res.headers.get('cache-control')).toBe('no-cache');
    await gw.app.services.ingest.pollAll();
    const fresh = await book('BTC-PERP');
    expect((await fresh.json()).freshness.stale).toBe(false);
    expect(fresh.headers.get('cache-control')).toMatch(/max-age=[1-5]$/);
  });

  it.each(['USDC-LEND', 'WETH-USDC', 'NOPE'])('answers %s (unknown or book-less) with 404 public_orderbook_not_available', async (asset) => {
    const res = await book(asset);
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toMatchObject({ error: 'Not Found', code: 'public_orderbook_not_available', retryable: false });
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers 503 public_orderbook_unavailable while the source is down, then recovers', async () => {
    await gw.setFault('paper-equities', 'down');
    const res = await book('AAPL');
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'public_orderbook_unavailable', retryable: true, retryAfter: 5 });
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await book('BTC')).status).toBe(200);
    await gw.setFault('paper-equities', 'none');
    expect((await book('AAPL')).status).toBe(200);
  });

  it('goes stale rather than fresh when a degraded venue stops publishing books', async () => {
    await gw.setFault('paper-perps', 'degraded');
    gw.clock.advance(6_000);
    await gw.app.services.ingest.pollAll();
    const body = await (await book('ETH')).json();
    expect(body.freshness).toMatchObject({ stale: true, sourceStatus: 'degraded' });
    await gw.setFault('paper-perps', 'none');
  });
});
