import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/gateway-config.js';
import { simulatedCatalogue } from '../src/venues/simulation/simulated-catalogue.js';
import { startGateway, type TestGateway } from './support/gateway.js';

const COUNT = 60;
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ simulatedMarkets: COUNT });
});
afterAll(() => gw.close());

describe('GATEWAY_SIM_MARKETS: a catalogue of any size', () => {
  it('is read from the environment, 10 by default, refusing nonsense', () => {
    expect(loadConfig({}).simulatedMarkets).toBe(10);
    expect(loadConfig({ GATEWAY_SIM_MARKETS: '200' }).simulatedMarkets).toBe(200);
    expect(() => loadConfig({ GATEWAY_SIM_MARKETS: '0' })).toThrow(/GATEWAY_SIM_MARKETS/);
    expect(() => loadConfig({ GATEWAY_SIM_MARKETS: 'many' })).toThrow(/GATEWAY_SIM_MARKETS/);
  });

  it('is deterministic: the same listings every run, today’s ten first, every id unique', () => {
    const a = simulatedCatalogue(1000);
    expect(simulatedCatalogue(1000)).toEqual(a);
    expect(a.slice(0, 10).map((m) => m.id)).toEqual(simulatedCatalogue().map((m) => m.id));
    expect(new Set(a.map((m) => m.id)).size).toBe(1000);
    const venues = new Set(a.slice(10).map((m) => m.protocolId));
    expect([...venues].sort()).toEqual(['paper-equities', 'paper-lending', 'paper-perps', 'paper-swap']);
  });

  it('serves every listed market with a snapshot, books where the venue has them, and stored history', async () => {
    const list = await (await gw.get('/api/v1/public/markets')).json();
    expect(list.data).toHaveLength(COUNT);
    expect(list.freshness.stale).toBe(false);
    const status = await (await gw.get('/api/v1/public/status')).json();
    expect(status.data.counts.markets).toBe(COUNT);
    const generated = list.data.slice(10);
    const perp = generated.find((m: any) => m.kind === 'perpetual');
    const book = await gw.get(`/api/v1/public/markets/${perp.id}/orderbook`);
    expect(book.status).toBe(200);
    expect((await book.json()).data.bids.length).toBeGreaterThan(0);
    const history = await (await gw.get(`/api/v1/public/markets/${perp.id}/history?resolution=1d&limit=30`)).json();
    expect(history.data.points).toHaveLength(30);
  });
});
