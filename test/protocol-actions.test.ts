import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, SESSION_TIME, btcPerpSession } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

/** Protocol.actions with certification and availableNow, through real HTTP, for each kind of caller. */
let gw: TestGateway;
let keys: BootstrapKeys;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
  await gw.app.services.ingest.pollAll();
});
afterAll(() => gw.close());

const QUERY = `{ protocols { data { id actions { id certification { state } availability availableNow unavailableCode unavailableReason } } } }`;

async function actions(headers: Record<string, string> = {}) {
  const res = await gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: QUERY }) });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: any; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return (protocol: string, action: string) => body.data.protocols.data.find((p: any) => p.id === protocol).actions.find((a: any) => a.id === action);
}

describe('Protocol.actions availableNow', () => {
  it('is false for every action without a credential', async () => {
    const of = await actions();
    expect(of('paper-perps', 'place_order')).toMatchObject({
      certification: { state: 'certified' },
      availability: 'available',
      availableNow: false,
      unavailableCode: 'authentication_required',
    });
    expect(of('paper-swap', 'swap')).toMatchObject({ availableNow: false });
  });

  it('names a credential that was sent but is not valid, rather than answering as if none was sent', async () => {
    expect((await actions({ authorization: 'Bearer gw_x' }))('paper-perps', 'place_order')).toMatchObject({
      availableNow: false,
      unavailableCode: 'unauthenticated',
      unavailableReason: expect.stringContaining('not valid'),
    });
  });

  it('follows the key: its scope, then its agent session', async () => {
    expect((await actions(bearer(keys.readOnly)))('paper-perps', 'place_order')).toMatchObject({
      availableNow: false,
      unavailableCode: 'POLICY_DENIED',
      unavailableReason: expect.stringContaining('execute:live'),
    });
    expect((await actions(bearer(keys.full)))('paper-perps', 'place_order')).toMatchObject({
      availableNow: false,
      unavailableCode: 'POLICY_DENIED',
      unavailableReason: expect.stringContaining('agent session'),
    });
    const wallet = await walletSession(gw);
    expect((await call(gw, 'POST', '/api/v1/agent-sessions', wallet, btcPerpSession({}, gw.clock.now()))).status).toBe(200);
    const of = await actions(bearer(keys.full));
    expect(of('paper-perps', 'place_order')).toMatchObject({ availableNow: true, unavailableCode: null, unavailableReason: null });
    // The session covers BTC perps only.
    expect(of('paper-swap', 'swap')).toMatchObject({ availableNow: false, unavailableCode: 'POLICY_DENIED' });
    // A wallet session needs no agent session.
    expect((await actions(bearer(wallet)))('paper-swap', 'swap')).toMatchObject({ availableNow: true });
  });

  it('turns false while the kill switch is engaged or the venue is down, and back', async () => {
    const key = bearer(keys.full);
    const { controls } = gw.app.services;
    controls.engageKillSwitch('incident 7');
    expect((await actions(key))('paper-perps', 'place_order')).toMatchObject({ availableNow: false, unavailableCode: 'VENUE_UNHEALTHY' });
    controls.releaseKillSwitch();
    expect((await actions(key))('paper-perps', 'place_order')).toMatchObject({ availableNow: true });
    await gw.setFault('paper-perps', 'down');
    const down = await actions(key);
    expect(down('paper-perps', 'place_order')).toMatchObject({ availability: 'unavailable', availableNow: false, unavailableCode: 'VENUE_UNHEALTHY' });
    await gw.setFault('paper-perps', 'none');
    expect((await actions(key))('paper-perps', 'place_order')).toMatchObject({ availableNow: true });
  });

  it('stays out of the REST protocol routes', async () => {
    const res = await gw.get('/api/v1/public/protocols/paper-perps');
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('"place_order"');
    expect(body).not.toMatch(/availableNow|unavailableCode/);
  });
});
