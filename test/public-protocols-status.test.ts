import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
beforeAll(async () => (gw = await startGateway()));
afterAll(() => gw.close());

const HIDDEN_ACTIONS = ['set_leverage', 'cross_margin_transfer', 'multi_hop_swap', 'limit_swap', 'flash_loan'];

describe('GET /api/v1/public/protocols/{protocol}', () => {
  it('describes availability, visibility and certification per action', async () => {
    const res = await gw.get('/api/v1/public/protocols/paper-perps');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.freshness.stale).toBe(false);
    expect(body.data).toMatchObject({ id: 'paper-perps', kind: 'perpetuals', visibility: 'public', availability: 'available', sourceStatus: 'healthy' });
    expect(body.data.markets).toEqual(['BTC-PERP', 'ETH-PERP', 'SOL-PERP']);
    expect(body.data.actions.map((a: any) => a.id)).toEqual(['place_order']);
    expect(body.data.actions[0].certification.state).toBe('certified');
    const equities = await (await gw.get('/api/v1/public/protocols/paper-equities')).json();
    const options = equities.data.actions.find((a: any) => a.id === 'options_order');
    expect(options).toMatchObject({ availability: 'restricted', certification: { state: 'partner_required' } });
  });

  it('follows the venue: unavailable while it is down', async () => {
    await gw.setFault('paper-swap', 'down');
    const body = await (await gw.get('/api/v1/public/protocols/paper-swap')).json();
    expect(body.data.availability).toBe('unavailable');
    expect(body.freshness).toMatchObject({ stale: true, sourceStatus: 'down' });
    await gw.setFault('paper-swap', 'none');
  });

  it('never shows hidden protocols, or hidden, canary, disabled and blocked actions', async () => {
    for (const id of ['paper-otc', 'nope']) {
      const res = await gw.get(`/api/v1/public/protocols/${id}`);
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('public_protocol_not_found');
    }
    const mirror = await gw.get('/api/v1/public/data/protocols.json');
    const text = await mirror.clone().text();
    for (const hidden of ['paper-otc', ...HIDDEN_ACTIONS]) expect(text).not.toContain(hidden);
    const body = await mirror.json();
    expect(body.data.map((p: any) => p.id)).toEqual(['paper-perps', 'paper-equities', 'paper-swap', 'paper-lending']);
  });

  it('serves protocols.json with an ETag and 304 on If-None-Match', async () => {
    const res = await gw.get('/api/v1/public/data/protocols.json');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\//);
    expect((await gw.get('/api/v1/public/data/protocols.json', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});

describe('GET /api/v1/public/status', () => {
  it('reports cache state, per-source health and counts', async () => {
    const body = await (await gw.get('/api/v1/public/status')).json();
    expect(body.data.mode).toBe('embedded');
    expect(body.data.cache).toMatchObject({ state: 'warm', marketSnapshots: 10, orderBookSnapshots: 6 });
    expect(body.data.counts).toEqual({ markets: 10, protocols: 4 });
    expect(body.data.sources.map((s: any) => s.sourceId).sort()).toEqual(['paper-equities', 'paper-lending', 'paper-perps', 'paper-swap']);
    expect(body.data.sources.every((s: any) => s.status === 'healthy')).toBe(true);
  });

  it('shows a failing source with its error and failure count', async () => {
    await gw.setFault('paper-lending', 'down');
    await gw.setFault('paper-lending', 'down');
    const body = await (await gw.get('/api/v1/public/status')).json();
    const lending = body.data.sources.find((s: any) => s.sourceId === 'paper-lending');
    expect(lending).toMatchObject({ status: 'down', consecutiveFailures: 2 });
    expect(lending.lastError).toMatch(/unreachable/);
    expect(body.freshness).toMatchObject({ stale: true, sourceStatus: 'down' });
    await gw.setFault('paper-lending', 'none');
  });
});
