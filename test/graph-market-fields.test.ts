import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';

let gw: TestGateway;
let keys: BootstrapKeys;
beforeAll(async () => {
  keys = writeBootstrap();
  gw = await startGateway({ bootstrapPath: keys.path });
});
afterAll(() => gw.close());

async function graph(query: string, headers: Record<string, string> = {}) {
  const res = await gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return (await res.json()) as { data?: any; errors?: any[] };
}

describe('the market graph', () => {
  it('links a market to its book, candles and protocol, and a protocol to its markets', async () => {
    const { data, errors } = await graph(`{ market(asset: "BTC") { data { id orderBook(depth: 3) { depth bids { price } }
      history(resolution: "1d", limit: 5) { resolution points { close } } protocolDetails { id marketList { id } } } } }`);
    expect(errors).toBeUndefined();
    const m = data.market.data;
    expect(m.orderBook).toMatchObject({ depth: 3 });
    expect(m.orderBook.bids).toHaveLength(3);
    expect(m.history.points.length).toBeGreaterThan(0);
    expect(m.history.points.length).toBeLessThanOrEqual(5);
    expect(m.protocolDetails.marketList.map((x: any) => x.id)).toContain('BTC-PERP');
  });

  it('validates history like the REST route', async () => {
    const { errors } = await graph('{ market(asset: "BTC") { data { history(resolution: "2h") { resolution } } } }');
    expect(errors?.[0]?.extensions?.code).toBe('invalid_public_market_history_query');
  });

  it('guards funding with the scope of its REST routes', async () => {
    const q = '{ market(asset: "BTC") { data { funding { fundingRate } fundingHistory(limit: 2) { entries { rate } } } } }';
    const anonymous = await graph(q);
    expect(anonymous.errors?.length).toBeGreaterThan(0);
    const allowed = await graph(q, bearer(keys.readOnly));
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data.market.data.funding.fundingRate).toMatch(/^-?\d/);
    expect(allowed.data.market.data.fundingHistory.entries.length).toBeLessThanOrEqual(2);
  });
});
