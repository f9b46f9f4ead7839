import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey, sha256Hex } from '../../src/auth/api-key-secret.js';
import type { GatewayConfig } from '../../src/config/gateway-config.js';
import { startAlpacaReplay, type AlpacaReplay } from '../../src/venues/alpaca/replay/alpaca-replay.js';
import { call } from '../support/execution.js';
import { loopbackOnly } from '../support/loopback-only.js';
import { deleteKeys, redisForSuites, TEST_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { eventually, startVenueGateway, type VenueGateway } from '../support/venue-gateway.js';
import { OTHER_WALLET, SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from '../support/wallet.js';

/**
 * Issue 26 (Alpaca): a gateway whose equities venue routes orders to Alpaca paper trading
 * (ALPACA_ORDERS=paper for acct-1), against the local wire fake through the real SDK. A limit
 * order goes preview → approval → wallet re-authentication → execute, rests at Alpaca (open),
 * fills in part as Alpaca streams it, and is cancelled by DELETE; an agent session's market order
 * fills; another account is refused at preview. On SQLite (embedded mode) and on Redis.
 */
const KEY_ID = 'PKROUTEDFLOW00001';
const SECRET = 'routed-flow-secret-never-shown';
loopbackOnly();

interface Keys {
  path: string;
  full: string;
  other: string;
}

/** acct-1 (the test wallet, whose orders Alpaca takes) with a full key; acct-2 with a key that may preview. */
function bootstrap(): Keys {
  const keys = { full: newApiKey(), other: newApiKey() };
  const path = join(mkdtempSync(join(tmpdir(), 'gw-alpaca-routed-')), 'bootstrap.json');
  writeFileSync(
    path,
    JSON.stringify({
      accounts: [
        { id: 'acct-1', wallet: TEST_WALLET.address, balances: { USDC: '1000' } },
        { id: 'acct-2', wallet: OTHER_WALLET.address, balances: { USDC: '1000' } },
      ],
      apiKeys: [
        { id: 'k-full', accountId: 'acct-1', sha256: sha256Hex(keys.full), scopes: ['data:read', 'execute:preview', 'execute:live'] },
        { id: 'k-other', accountId: 'acct-2', sha256: sha256Hex(keys.other), scopes: ['data:read', 'execute:preview', 'execute:live'] },
      ],
    }),
  );
  return { path, ...keys };
}

const redisUp = await redisForSuites();
const stores: [string, boolean, () => Partial<GatewayConfig>][] = [
  ['SQLite', true, () => ({ dataDir: mkdtempSync(join(tmpdir(), 'gw-routed-sqlite-')) })],
  ['Redis', redisUp, () => ({ mode: 'redis', redisUrl: TEST_REDIS_URL, redisKeyPrefix: uniquePrefix('alpaca-routed') })],
];

describe.each(stores)('Alpaca paper trading through the gateway, on %s', (_name, available, storeConfig) => {
  let fake: AlpacaReplay;
  let gw: VenueGateway;
  let keys: Keys;
  let wallet: string;
  const store = storeConfig();

  beforeAll(async () => {
    if (!available) return;
    fake = await startAlpacaReplay({ keyId: KEY_ID, secret: SECRET });
    keys = bootstrap();
    gw = await startVenueGateway({
      ...store,
      bootstrapPath: keys.path,
      siweDomain: SIWE_DOMAIN,
      venueEnv: {
        ALPACA_KEY_ID: KEY_ID,
        ALPACA_SECRET_KEY: SECRET,
        ALPACA_TRADING_URL: fake.urls.trading,
        ALPACA_DATA_URL: fake.urls.data,
        ALPACA_DATA_STREAM_URL: fake.urls.dataStreamHost,
        ALPACA_POLL_MS: '1000',
        ALPACA_TIMEOUT_MS: '2000',
        ALPACA_ORDERS: 'paper',
        ALPACA_ORDERS_ACCOUNT: 'acct-1',
      },
    });
    await eventually(async () => (await gw.json('/api/v1/public/markets/AAPL')).status === 200, 10_000, 'the listing');
    await eventually(() => fake.controls.streams.dataSubscriptions().trades?.includes('AAPL'), 10_000, 'the data stream');
    // The order follower listens to Alpaca's trade_updates (it runs where ingestion runs).
    await eventually(() => fake.controls.streams.connections().tradingListeners === 1, 10_000, 'the trade_updates stream');
    wallet = await walletSession(gw);
  }, 60_000);

  afterAll(async () => {
    await gw?.close();
    await fake?.close();
    if (available && store.redisKeyPrefix) await deleteKeys(TEST_REDIS_URL, [store.redisKeyPrefix]);
  });

  /** A new trade at Alpaca, so the data the quote rests on is fresh (the recordings are from 2022). */
  async function freshBook(): Promise<void> {
    fake.controls.market.setPrice('AAPL', 161.2);
    await eventually(async () => (await gw.json('/api/v1/public/markets/AAPL/orderbook')).body.freshness?.stale === false, 5_000, 'a fresh book');
  }

  const read = async (token: string, executionId: string) => (await (await call(gw, 'GET', `/api/v1/execute/executions/${executionId}`, token)).json()) as any;
  const fakeOrder = (clientOrderId: string) => fake.controls.orders.all().find((o) => o.client_order_id === clientOrderId);

  it.skipIf(!available)(
    'interactive: a limit order is approved, rests at Alpaca (open), fills in part as Alpaca streams it, and is cancelled by DELETE',
    async () => {
      const order = {
        protocol: 'alpaca',
        action: 'place_order',
        assetIn: { token: 'AAPL', amount: '10' },
        metadata: { side: 'buy', type: 'limit', price: '150', timeInForce: 'gtc' },
        referenceId: 'alpaca-limit-1',
      };
      await freshBook();
      const previewed = await call(gw, 'POST', '/api/v1/execute/preview', wallet, order);
      expect(previewed.status).toBe(200);
      const preview = await previewed.json();
      expect(preview.gates.map((g: any) => g.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
      expect(preview.quote).toMatchObject({ marketId: 'AAPL-USD', side: 'buy', amount: '10' });

      const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', wallet, order)).json();
      const signed = await signedMessage(gw, { statement: approval.approveRequest.statement, resources: approval.approveRequest.resources });
      expect((await call(gw, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, wallet, { decision: 'approve', ...signed })).status).toBe(200);
      await freshBook();
      const executed = await call(gw, 'POST', '/api/v1/execute', wallet, { ...order, approvalId: approval.approvalId });
      const execution = await executed.json();
      expect(executed.status, JSON.stringify(execution)).toBe(200);
      expect(execution).toMatchObject({ state: 'open', approvalId: approval.approvalId, order: { resting: true } });
      expect(execution.order.clientOrderId).toMatch(/^gw-/);
      const atAlpaca = fakeOrder(execution.order.clientOrderId)!;
      expect(atAlpaca).toMatchObject({ symbol: 'AAPL', qty: '10', limit_price: '150', time_in_force: 'gtc', side: 'buy' });
      expect(execution.order.venueOrderId).toBe(atAlpaca.id);
      expect(await read(wallet, execution.executionId)).toMatchObject({ state: 'open', order: { resting: true } });

      fake.controls.orders.fill(atAlpaca.id, { qty: 4 });
      const partial = await eventually(
        async () => {
          const e = await read(wallet, execution.executionId);
          return e.state === 'partially_filled' ? e : undefined;
        },
        10_000,
        'the partial fill',
      );
      expect(partial).toMatchObject({ order: { resting: true }, fill: { filledAmount: '4', requestedAmount: '10', price: '150', fee: '0', feeToken: 'USD' } });

      const cancelled = await call(gw, 'DELETE', `/api/v1/execute/executions/${execution.executionId}`, wallet);
      const body = await cancelled.json();
      expect(cancelled.status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({ state: 'cancelled', order: { resting: false }, fill: { filledAmount: '4' } });
      expect(fakeOrder(execution.order.clientOrderId)).toMatchObject({ status: 'canceled', filled_qty: '4' });
      expect(await read(wallet, execution.executionId)).toMatchObject({ state: 'cancelled' });
      // One order at Alpaca for the referenceId, whatever was asked.
      expect(fake.controls.orders.all().filter((o) => o.client_order_id === execution.order.clientOrderId)).toHaveLength(1);
    },
    30_000,
  );

  it.skipIf(!available)("an agent session's market order fills at Alpaca; the same body again replays it, never a second order", async () => {
    const session = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
      apiKeyId: 'k-full',
      protocols: ['alpaca'],
      actions: ['place_order'],
      assets: ['AAPL'],
      maxOrderNotional: '10000',
      maxPeriodNotional: '100000',
      periodSeconds: 3600,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(session.status).toBe(200);
    const order = {
      protocol: 'alpaca',
      action: 'place_order',
      assetIn: { token: 'AAPL', amount: '2' },
      metadata: { side: 'buy', type: 'market' },
      referenceId: 'alpaca-mkt-1',
    };
    await freshBook();
    expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
    const execution = await res.json();
    expect(res.status, JSON.stringify(execution)).toBe(200);
    const filled = await eventually(
      async () => {
        const e = await read(keys.full, execution.executionId);
        return e.state === 'filled' ? e : undefined;
      },
      10_000,
      'the fill',
    );
    expect(filled).toMatchObject({ order: { resting: false }, fill: { filledAmount: '2', requestedAmount: '2' } });
    const again = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
    expect((await again.json()).executionId).toBe(execution.executionId);
    expect(fake.controls.orders.all().filter((o) => o.client_order_id === execution.order.clientOrderId)).toHaveLength(1);
    const sent = fake.controls.http.requests({ method: 'POST', path: '/v2/orders' }).map((r) => r.body as any);
    expect(sent.filter((b) => b.client_order_id === execution.order.clientOrderId)).toEqual([
      { symbol: 'AAPL', side: 'buy', type: 'market', time_in_force: 'day', qty: '2', client_order_id: execution.order.clientOrderId },
    ]);
  });

  it.skipIf(!available)('another gateway account is refused at preview (POLICY_DENIED): Alpaca takes acct-1’s orders only', async () => {
    await freshBook();
    const order = {
      protocol: 'alpaca',
      action: 'place_order',
      assetIn: { token: 'AAPL', amount: '1' },
      metadata: { side: 'buy', type: 'market' },
      referenceId: 'alpaca-other-1',
    };
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.other, order)).json();
    expect(preview.gates[2]).toMatchObject({ gate: 'venue', status: 'block', code: 'POLICY_DENIED' });
    const res = await call(gw, 'POST', '/api/v1/execute', keys.other, order);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'POLICY_DENIED', details: { check: 'venue_account' } });
  });

  it.skipIf(!available)('says the venue trades on Alpaca paper trading, never the keys', async () => {
    const text = await (await gw.get('/api/v1/public/status')).text();
    expect(text).not.toContain(KEY_ID);
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text).data.venues.find((v: any) => v.id === 'alpaca')).toMatchObject({ mode: 'real' });
    const protocols = (await gw.json('/api/v1/public/data/protocols.json')).body.data;
    expect(protocols.find((p: any) => p.id === 'alpaca')).toMatchObject({ name: 'Alpaca US equities (IEX data, paper trading)' });
    expect(fake.controls.http.refusedUrls()).toEqual([]);
  });
});
