import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLimits } from '../src/config/limits-config.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap } from './support/keys.js';
import { RawGraphqlWs } from './support/ws-raw.js';

const keys = writeBootstrap();
let gw: TestGateway;
beforeAll(async () => {
  const limits = readLimits({
    WS_MAX_SOCKETS_PER_ADDRESS: '4',
    WS_MAX_SUBSCRIPTIONS_PER_SOCKET: '5',
    WS_MAX_SUBSCRIPTIONS_PER_KEY: '7',
    WS_MAX_INIT_PAYLOAD_BYTES: '512',
    WS_MAX_MESSAGE_BYTES: '8192',
  });
  gw = await startGateway({ bootstrapPath: keys.path, limits, rateLimits: { publicPerMinute: 10_000, keyPerMinute: 10_000 } });
});
afterAll(() => gw.close());

const SUB = 'subscription { marketUpdated(asset: "BTC") { asset } }';

describe('bounded graphql-ws sockets', () => {
  it('sockets per client address: the one over is refused with 429 on upgrade; closing one frees a place', async () => {
    const open = await Promise.all(Array.from({ length: 4 }, () => RawGraphqlWs.connect(gw.baseUrl)));
    expect(await RawGraphqlWs.open(gw.baseUrl)).toEqual({ refused: 429 });
    open[0]!.close();
    await open[0]!.until('close');
    await new Promise((r) => setTimeout(r, 50));
    const again = await RawGraphqlWs.connect(gw.baseUrl);
    for (const ws of [...open.slice(1), again]) ws.close();
    await Promise.all([...open.slice(1), again].map((ws) => ws.until('close')));
  });

  it('a connection_init payload over the limit closes with 4403', async () => {
    const ws = await RawGraphqlWs.open(gw.baseUrl);
    if ('refused' in ws) throw new Error('refused');
    ws.send({ type: 'connection_init', payload: { pad: 'x'.repeat(1_000) } });
    await ws.until('close');
    expect(ws.closed?.code).toBe(4403);
  });

  it('a message over the size limit closes the socket with 1009', async () => {
    const ws = await RawGraphqlWs.connect(gw.baseUrl);
    ws.subscribe('big', `{ status { data { mode } } } # ${'x'.repeat(10_000)}`);
    await ws.until('close');
    expect(ws.closed?.code).toBe(1009);
  });

  it('operations per socket: the one over answers too_many_subscriptions and the socket stays', async () => {
    const ws = await RawGraphqlWs.connect(gw.baseUrl);
    for (let i = 0; i < 5; i++) ws.subscribe(`s${i}`, SUB);
    await new Promise((r) => setTimeout(r, 100));
    ws.subscribe('s5', SUB);
    expect(await ws.until((m) => m.id === 's5')).toMatchObject({ type: 'error', payload: [{ extensions: { code: 'too_many_subscriptions' } }] });
    ws.send({ id: 's0', type: 'complete' });
    await new Promise((r) => setTimeout(r, 50));
    ws.subscribe('s6', SUB);
    await new Promise((r) => setTimeout(r, 100));
    expect(ws.messages.find((m) => m.id === 's6' && m.type === 'error')).toBeUndefined();
    expect(ws.closed).toBeUndefined();
    ws.close();
    await ws.until('close');
  });

  it('operations per key, over all its sockets', async () => {
    const a = await RawGraphqlWs.connect(gw.baseUrl, bearer(keys.readOnly));
    const b = await RawGraphqlWs.connect(gw.baseUrl, bearer(keys.readOnly));
    for (let i = 0; i < 4; i++) a.subscribe(`a${i}`, SUB);
    for (let i = 0; i < 3; i++) b.subscribe(`b${i}`, SUB);
    await new Promise((r) => setTimeout(r, 100));
    b.subscribe('b3', SUB);
    expect(await b.until((m) => m.id === 'b3')).toMatchObject({
      type: 'error',
      payload: [{ extensions: { code: 'too_many_subscriptions', details: { per: 'key' } } }],
    });
    a.close();
    await a.until('close');
    await new Promise((r) => setTimeout(r, 50));
    b.subscribe('b4', SUB);
    await new Promise((r) => setTimeout(r, 100));
    expect(
      b.messages.find((m) => m.id === 'b4' && m.type === 'error'),
      JSON.stringify(b.messages.find((m) => m.id === 'b4')),
    ).toBeUndefined();
    b.close();
    await b.until('close');
  });

  it('many sockets and subscriptions opened and closed: no listener warning, memory returns', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const heap = () => process.memoryUsage().heapUsed;
    const before = heap();
    for (let round = 0; round < 5; round++) {
      const sockets = await Promise.all(Array.from({ length: 4 }, () => RawGraphqlWs.connect(gw.baseUrl)));
      for (const ws of sockets) for (let i = 0; i < 5; i++) ws.subscribe(`r${i}`, SUB);
      await new Promise((r) => setTimeout(r, 50));
      await gw.app.services.ingest.pollAll();
      for (const ws of sockets) ws.close();
      await Promise.all(sockets.map((ws) => ws.until('close')));
    }
    await new Promise((r) => setTimeout(r, 100));
    process.off('warning', onWarning);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    const grownMb = (heap() - before) / 1e6;
    console.log(`heap after 100 subscriptions on 20 sockets opened and closed: ${grownMb.toFixed(1)} MB over the start`);
    expect(grownMb).toBeLessThan(60);
    // A fresh socket still has its full allowance.
    const ws = await RawGraphqlWs.connect(gw.baseUrl);
    ws.close();
  });
});
