import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.app.services.ingest.pollAll();
});
afterAll(() => gw.close());

async function graph(query: string, variables: Record<string, unknown> = {}) {
  const res = await gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as { data?: any; errors?: any[] };
}

const GRAPH = `query Graph($windowDays: Int, $returns: ReturnKind) {
  marketGraph(windowDays: $windowDays, returns: $returns) {
    schemaVersion generatedAt freshness { asOf stale sourceStatus }
    data { windowDays returns
      nodes { id kind ... on MarketGraphMarket { marketId quote market { price } } ... on MarketGraphAsset { symbol }
        ... on MarketGraphProtocol { protocol { id } } ... on MarketGraphVenue { venueId sourceStatus } }
      edges { kind source target correlation observations } } }
}`;

/** Daily closes of the `days` + 1 closed days before today, as the public REST history route serves them. */
async function closedDailyCloses(asset: string, days: number): Promise<Map<number, number>> {
  const res = await gw.get(`/api/v1/public/markets/${asset}/history?resolution=1d&limit=${days + 2}`);
  const body = (await res.json()) as { data: { points: { time: string; close: string; closed: boolean }[] } };
  const today = Math.floor(gw.clock.now() / 86_400_000) * 86_400_000;
  const closed = body.data.points.filter((p) => p.closed && Date.parse(p.time) >= today - (days + 1) * 86_400_000);
  return new Map(closed.map((p) => [Date.parse(p.time), Number(p.close)]));
}

/** Pearson's r written out independently of the gateway's code: r = cov(x, y) / (sd(x) · sd(y)). */
function referenceCorrelation(a: Map<number, number>, b: Map<number, number>, kind: 'log' | 'simple') {
  const ret = (closes: Map<number, number>) => {
    const out = new Map<number, number>();
    const days = [...closes.keys()].sort((x, y) => x - y);
    for (let i = 1; i < days.length; i++) {
      const [p, prev] = [closes.get(days[i]!)!, closes.get(days[i - 1]!)!];
      out.set(days[i]!, kind === 'log' ? Math.log(p) - Math.log(prev) : (p - prev) / prev);
    }
    return out;
  };
  const ra = ret(a);
  const rb = ret(b);
  const days = [...ra.keys()].filter((t) => rb.has(t));
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const xs = days.map((t) => ra.get(t)!);
  const ys = days.map((t) => rb.get(t)!);
  const mx = mean(xs);
  const my = mean(ys);
  const cov = mean(xs.map((x, i) => (x - mx) * (ys[i]! - my)));
  const sd = (vs: number[], m: number) => Math.sqrt(mean(vs.map((v) => (v - m) ** 2)));
  return { r: cov / (sd(xs, mx) * sd(ys, my)), n: days.length };
}

describe('marketGraph', () => {
  it('is a public envelope of markets, assets, protocols and venues with listed-on, quoted-in and collateral-for edges', async () => {
    const { data, errors } = await graph(GRAPH);
    expect(errors).toBeUndefined();
    const env = data.marketGraph;
    expect(env.schemaVersion).toBe('service.public-data.v1');
    expect(env.freshness).toMatchObject({ stale: false, sourceStatus: 'healthy' });
    expect(env.data).toMatchObject({ windowDays: 30, returns: 'log' });
    const nodes = new Map<string, any>(env.data.nodes.map((n: any) => [n.id, n]));
    expect(nodes.get('market:BTC-PERP')).toMatchObject({ kind: 'market', marketId: 'BTC-PERP', quote: 'USDC', market: { price: expect.any(String) } });
    expect(nodes.get('asset:USDC')).toMatchObject({ kind: 'asset', symbol: 'USDC' });
    expect(nodes.get('protocol:paper-lending')).toMatchObject({ kind: 'protocol', protocol: { id: 'paper-lending' } });
    expect(nodes.get('venue:paper-perps')).toMatchObject({ kind: 'venue', sourceStatus: 'healthy' });
    const has = (kind: string, source: string, target: string) =>
      env.data.edges.some((e: any) => e.kind === kind && e.source === source && e.target === target);
    expect(has('listed_on', 'market:BTC-PERP', 'venue:paper-perps')).toBe(true);
    expect(has('listed_on', 'market:BTC-PERP', 'protocol:paper-perps')).toBe(true);
    expect(has('quoted_in', 'market:AAPL-USD', 'asset:USD')).toBe(true);
    expect(has('base_asset', 'market:WETH-USDC', 'asset:WETH')).toBe(true);
    expect(has('collateral_for', 'asset:WETH', 'protocol:paper-lending')).toBe(true);
    expect(has('collateral_for', 'asset:USDC', 'protocol:paper-perps')).toBe(true);
    expect(has('collateral_for', 'asset:AAPL', 'protocol:paper-equities')).toBe(false);
    // Every edge joins two nodes of the graph.
    for (const e of env.data.edges) expect(nodes.has(e.source) && nodes.has(e.target)).toBe(true);
  });

  it.each(['log', 'simple'] as const)('correlates daily %s returns as computed by hand from the REST history', async (returns) => {
    const windowDays = 20;
    const { data, errors } = await graph(GRAPH, { windowDays, returns });
    expect(errors).toBeUndefined();
    const correlations = data.marketGraph.data.edges.filter((e: any) => e.kind === 'correlation');
    // Ten markets with stored daily history: every pair, once.
    expect(correlations).toHaveLength(45);
    for (const [a, b] of [
      ['BTC-PERP', 'ETH-PERP'],
      ['AAPL-USD', 'WETH-LEND'],
    ] as const) {
      const edge = correlations.find((e: any) => e.source === `market:${a}` && e.target === `market:${b}`);
      const expected = referenceCorrelation(await closedDailyCloses(a, windowDays), await closedDailyCloses(b, windowDays), returns);
      expect(edge.observations).toBe(expected.n);
      // The crypto pair trades every day; the equity trades on weekdays only (a weekend is spanned by one return).
      expect(expected.n).toBeGreaterThanOrEqual(a === 'BTC-PERP' ? windowDays : 10);
      expect(Math.abs(edge.correlation - expected.r)).toBeLessThanOrEqual(5e-7);
      expect(Math.abs(edge.correlation)).toBeLessThanOrEqual(1);
    }
  });

  it('keeps only the correlations at least as strong as asked', async () => {
    const all = (await graph(GRAPH, { windowDays: 20 })).data.marketGraph.data.edges.filter((e: any) => e.kind === 'correlation');
    const query = GRAPH.replace('$returns: ReturnKind)', '$returns: ReturnKind, $min: Float)').replace(
      'returns: $returns)',
      'returns: $returns, minAbsCorrelation: $min)',
    );
    const strong = (await graph(query, { windowDays: 20, min: 0.3 })).data.marketGraph.data.edges.filter((e: any) => e.kind === 'correlation');
    expect(strong).toEqual(all.filter((e: any) => Math.abs(e.correlation) >= 0.3));
    expect(strong.length).toBeLessThan(all.length);
    const { errors } = await graph(query, { min: 1.5 });
    expect(errors?.[0]).toMatchObject({ extensions: { code: 'invalid_market_graph_query' } });
  });

  it('refuses a window outside its bounds with a clear 400 code', async () => {
    for (const windowDays of [2, 366, -1]) {
      const { errors } = await graph(GRAPH, { windowDays });
      expect(errors?.[0]).toMatchObject({ extensions: { code: 'invalid_market_graph_query' } });
      expect(errors?.[0]?.message).toContain("'windowDays' must be an integer from 3 to 365");
    }
  });

  it('answers once per operation: aliases that repeat the all-pairs computation are refused', async () => {
    const { data, errors } = await graph('{ a: marketGraph(windowDays: 30) { generatedAt } b: marketGraph(windowDays: 31) { generatedAt } }');
    expect(errors).toHaveLength(1);
    expect(errors?.[0]).toMatchObject({ extensions: { code: 'invalid_market_graph_query' } });
    expect(errors?.[0]?.message).toContain('once per operation');
    expect(data).toBeNull(); // marketGraph is non-null: the refused alias nulls the operation's data
  });

  it('has no REST route', async () => {
    const res = await gw.get('/api/v1/public/openapi.public.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    expect(JSON.stringify(doc)).not.toMatch(/marketGraph|MarketGraph/i);
    expect((await gw.get('/api/v1/public/market-graph')).status).toBe(404);
  });
});
