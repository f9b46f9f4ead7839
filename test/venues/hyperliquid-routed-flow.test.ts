import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'graphql-ws';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GatewayConfig } from '../../src/config/gateway-config.js';
import { startHyperliquidReplay, type HyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import { btcPerpSession, call } from '../support/execution.js';
import { writeBootstrap, type BootstrapKeys } from '../support/keys.js';
import { deleteKeys, redisForSuites, TEST_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { eventually, hyperliquidOrderEnv, startVenueGateway, type VenueGateway } from '../support/venue-gateway.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from '../support/wallet.js';

/**
 * A real gateway whose perpetuals are Hyperliquid's, with an API wallet's key: orders go to the
 * venue (here the wire fake's exchange, every action's signature checked) for the master
 * account, in the interactive flow (preview, approval, the wallet's signed decision, execution)
 * and in an agent session. The execution follows the venue's order: open, partially filled as
 * another trader crosses it, cancelled by DELETE; a market order fills at once.
 */
const redisUp = await redisForSuites();
const STORES: [string, boolean, () => Partial<GatewayConfig>][] = [
  ['SQLite', true, () => ({ dataDir: mkdtempSync(join(tmpdir(), 'gw-routed-sqlite-')) })],
  ['Redis', redisUp, () => ({ mode: 'redis', redisUrl: TEST_REDIS_URL, redisKeyPrefix: uniquePrefix('hl-routed') })],
];

for (const [storeName, available, storeConfig] of STORES) {
  describe.skipIf(!available)(`Hyperliquid orders, on ${storeName}`, () => {
    const store = storeConfig();
    const master = privateKeyToAccount(generatePrivateKey());
    const agentKey = generatePrivateKey();
    const agent = privateKeyToAccount(agentKey);

    let fake: HyperliquidReplay;
    let gw: VenueGateway;
    let keys: BootstrapKeys;
    let session: string;

    const order = (referenceId: string, metadata: Record<string, unknown>, amount = '0.01') => ({
      protocol: 'hyperliquid',
      action: 'place_order',
      assetIn: { token: 'BTC', amount },
      metadata,
      referenceId,
    });

    /**
     * A book pushed by the venue now and seen fresh by the gateway: a book older than 5 s is no
     * execution signal (the venue gate refuses it), and the fake pushes books only when told to
     * (pushed again every half second until the gateway's stream has one).
     */
    async function freshBook(): Promise<void> {
      const since = Date.now();
      let pushedAt = 0;
      await eventually(
        async () => {
          if (Date.now() - pushedAt > 500) {
            pushedAt = Date.now();
            fake.controls.pushL2Book('BTC');
          }
          const res = await gw.json('/api/v1/public/markets/BTC/orderbook');
          const asOf = res.body.freshness?.asOf;
          return res.status === 200 && res.body.freshness.stale === false && (typeof asOf === 'number' ? asOf : Date.parse(asOf)) >= since - 1_000;
        },
        30_000,
        'a fresh BTC book',
      );
    }

    const read = async (executionId: string) => (await (await call(gw, 'GET', `/api/v1/execute/executions/${executionId}`, session)).json()) as any;

    beforeAll(async () => {
      fake = await startHyperliquidReplay({ perpCount: 30, trading: { accounts: [{ address: master.address, agents: [agent.address], usdc: '100000' }] } });
      keys = writeBootstrap(TEST_WALLET.address);
      gw = await startVenueGateway({
        ...store,
        bootstrapPath: keys.path,
        siweDomain: SIWE_DOMAIN,
        venueEnv: {
          ...hyperliquidOrderEnv(fake, master.address, agentKey),
        },
      });
      // The venue listed (its first poll may take a while on a busy machine), then its book streamed: what a preview prices on.
      await eventually(async () => (await gw.json('/api/v1/public/markets/BTC')).status === 200, 30_000, 'the BTC listing');
      await freshBook();
      session = await walletSession(gw);
    }, 90_000);
    afterAll(async () => {
      await gw?.close();
      await fake?.close();
      if (store.redisKeyPrefix) await deleteKeys(TEST_REDIS_URL, [store.redisKeyPrefix]);
    });

    describe(`the gateway routes orders to Hyperliquid, on ${storeName}`, () => {
      it('says where orders go, never the key', async () => {
        const protocols = (await gw.json('/api/v1/public/data/protocols.json')).body.data;
        expect(protocols.find((p: any) => p.id === 'hyperliquid').name).toBe('Hyperliquid perpetuals (testnet data, testnet orders)');
        const status = JSON.stringify((await gw.json('/api/v1/public/status')).body);
        expect(status).not.toContain(agentKey.slice(2));
      });

      it('interactive: preview → approval → the wallet’s signed decision → execution rests open at the venue; partially filled on the venue’s stream; DELETE cancels', async () => {
        const limit = order('hl-int-1', { side: 'buy', type: 'limit', price: '29000', timeInForce: 'gtc' });
        await freshBook();
        const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', session, limit)).json();
        expect(preview).toMatchObject({ executable: true, quote: { marketId: 'BTC-PERP', price: '29000', notionalUsd: '290.00' } });
        const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', session, limit)).json();
        const signed = await signedMessage(gw, { statement: approval.approveRequest.statement, resources: approval.approveRequest.resources });
        const decided = await call(gw, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, session, { decision: 'approve', ...signed });
        expect(decided.status).toBe(200);

        // A dashboard follows it live (graphql-ws), an agent reads it through MCP.
        const updates: { executionId: string; state: string }[] = [];
        const ws = createClient({
          url: gw.baseUrl.replace('http', 'ws') + '/graphql',
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${session}` },
        });
        const stop = ws.subscribe(
          { query: 'subscription { executionUpdated { executionId state } }' },
          {
            next: (m) => void updates.push(m.data?.executionUpdated as { executionId: string; state: string }),
            error: () => undefined,
            complete: () => undefined,
          },
        );
        await new Promise<void>((resolve) => ws.on('connected', () => setTimeout(resolve, 200)));

        await freshBook();
        const res = await call(gw, 'POST', '/api/v1/execute', session, { ...limit, approvalId: approval.approvalId });
        const execution = await res.json();
        expect(res.status, JSON.stringify(execution)).toBe(200);
        expect(execution).toMatchObject({ state: 'open', order: { resting: true }, fill: null });
        const cloid = execution.order.clientOrderId;
        expect(cloid).toMatch(/^0x[0-9a-f]{32}$/);
        expect(fake.controls.orders(master.address)).toContainEqual(expect.objectContaining({ cloid, status: 'open', limitPx: '29000', sz: '0.01' }));
        expect(await read(execution.executionId)).toMatchObject({ state: 'open', order: { resting: true, venueOrderId: expect.stringMatching(/^\d+$/) } });

        fake.controls.fillOrder(master.address, cloid, { size: '0.004' });
        const partial = await eventually(
          async () => {
            const e = await read(execution.executionId);
            return e.state === 'partially_filled' ? e : undefined;
          },
          10_000,
          'the partial fill',
        );
        expect(partial.fill).toMatchObject({ filledAmount: '0.004', requestedAmount: '0.01', price: '29000', feeToken: 'USDC' });
        expect(partial.order.resting).toBe(true);

        const cancelled = await call(gw, 'DELETE', `/api/v1/execute/executions/${execution.executionId}`, session);
        expect(cancelled.status).toBe(200);
        expect(await cancelled.json()).toMatchObject({ state: 'cancelled', order: { resting: false }, fill: { filledAmount: '0.004' } });
        expect(fake.controls.orders(master.address)).toContainEqual(expect.objectContaining({ cloid, status: 'canceled', sz: '0.006' }));
        expect((await read(execution.executionId)).state).toBe('cancelled');

        await eventually(() => updates.some((u) => u.executionId === execution.executionId && u.state === 'cancelled'), 5_000, 'the cancel pushed');
        const seen = updates.filter((u) => u.executionId === execution.executionId).map((u) => u.state);
        expect(seen).toEqual(expect.arrayContaining(['open', 'partially_filled', 'cancelled']));
        stop();
        await ws.dispose();
        const mcp = new Client({ name: 'hl-routed', version: '1.0.0' });
        await mcp.connect(
          new StreamableHTTPClientTransport(new URL(`${gw.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys.full}` } } }),
        );
        const viaMcp: any = await mcp.callTool({ name: 'getExecution', arguments: { executionId: execution.executionId } });
        expect(viaMcp.structuredContent).toMatchObject({
          state: 'cancelled',
          order: { clientOrderId: cloid, resting: false },
          fill: { filledAmount: '0.004' },
        });
        await mcp.close();
      });

      it('an agent session: an API key’s market order fills at once, its price and fee from the venue’s fills', async () => {
        const activated = await call(gw, 'POST', '/api/v1/agent-sessions', session, btcPerpSession({ protocols: ['hyperliquid'] }));
        expect(activated.status, await activated.clone().text()).toBe(200);
        const market = order('hl-agent-1', { side: 'buy', type: 'market' });
        await freshBook();
        const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, market)).json();
        expect(preview.executable, JSON.stringify(preview.gates)).toBe(true);
        await freshBook();
        const res = await call(gw, 'POST', '/api/v1/execute', keys.full, market);
        const execution = await res.json();
        expect(res.status, JSON.stringify(execution)).toBe(200);
        expect(execution).toMatchObject({
          state: 'filled',
          principalKind: 'api_key',
          order: { resting: false },
          fill: { filledAmount: '0.01', feeToken: 'USDC' },
        });
        expect(Number(execution.fill.fee)).toBeCloseTo(Number(execution.fill.price) * 0.01 * 0.00045, 5);
        const filledAtVenue = fake.controls.orders(master.address).find((o) => o.cloid === execution.order.clientOrderId);
        expect(filledAtVenue).toMatchObject({ status: 'filled', tif: 'Ioc', sz: '0.0' });
        expect((await read(execution.executionId)).state).toBe('filled');
      });

      it('a market order whose fills cannot be read when it fills: its fee comes from the venue’s fills on the stream, never left at 0', async () => {
        const market = order('hl-agent-fee-later', { side: 'buy', type: 'market' });
        await freshBook();
        expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, market)).status).toBe(200);
        await freshBook();
        // The adapter's read of the order's fills after the fill fails; the venue's user stream still carries them.
        fake.controls.serverErrorNext(1, { status: 500 }, { type: 'userFills' });
        const res = await call(gw, 'POST', '/api/v1/execute', keys.full, market);
        const execution = await res.json();
        expect(res.status, JSON.stringify(execution)).toBe(200);
        expect(execution).toMatchObject({ state: 'filled', fill: { filledAmount: '0.01', feeToken: 'USDC' } });
        const fee = await eventually(
          async () => {
            const fill = (await read(execution.executionId)).fill;
            return Number(fill.fee) > 0 ? fill : undefined;
          },
          10_000,
          'the fee from the venue’s fills',
        );
        expect(Number(fee.fee)).toBeCloseTo(Number(fee.price) * 0.01 * 0.00045, 5);
        expect((await read(execution.executionId)).state).toBe('filled');
      });

      it('the venue’s rules refuse at preview: a price off the tick is a 400 naming the rule, nothing sent', async () => {
        const before = fake.controls.requests().filter((r) => r.path === '/exchange').length;
        const res = await call(gw, 'POST', '/api/v1/execute/preview', session, order('hl-tick', { side: 'buy', type: 'limit', price: '29000.55' }));
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'invalid_request', details: { field: 'metadata.price' }, message: expect.stringMatching(/tick rule/) });
        expect(fake.controls.requests().filter((r) => r.path === '/exchange').length).toBe(before);
      });
    });
  });
}
