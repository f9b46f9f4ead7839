import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/config/logger.js';
import { startAlpacaReplay, type AlpacaReplay } from '../../src/venues/alpaca/replay/alpaca-replay.js';
import { startHyperliquidReplay, type HyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import { btcPerpSession } from '../support/execution.js';
import { writeBootstrap, type BootstrapKeys } from '../support/keys.js';
import { loopbackOnly } from '../support/loopback-only.js';
import { eventually, hyperliquidOrderEnv, startVenueGateway, type VenueGateway } from '../support/venue-gateway.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from '../support/wallet.js';

/**
 * Issue 26: no venue credential ever leaves the gateway. One gateway routes orders to both
 * venues' fakes (a Hyperliquid API wallet's key, an Alpaca key pair), its logger at debug level
 * with the production options, and every flow runs: orders placed, filled, rested, cancelled,
 * refused, left unknown by a venue that does not answer. Every log line, every answer (bodies and
 * headers, REST, GraphQL, MCP) and /metrics are then scanned for each credential in every form.
 */
loopbackOnly();
const master = privateKeyToAccount(generatePrivateKey());
const agentKey = generatePrivateKey();
const agent = privateKeyToAccount(agentKey);
const ALPACA_KEY_ID = 'PKSECRETSCAN000001';
const ALPACA_SECRET = 'alpaca-secret-scan-9f3c2e1d7b';

let hl: HyperliquidReplay;
let alpaca: AlpacaReplay;
let gw: VenueGateway;
let keys: BootstrapKeys;
let wallet: string;
const logLines: string[] = [];
/** Every answer the gateway gave in this file: status line, headers and body. */
const answers: string[] = [];

async function send(method: string, path: string, token: string | undefined, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await gw.get(path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  answers.push(`${res.status} ${JSON.stringify([...res.headers])} ${text}`);
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // text answers (metrics) stay text
  }
  return { status: res.status, body: parsed };
}

const perp = (referenceId: string, metadata: Record<string, unknown>) => ({
  protocol: 'hyperliquid',
  action: 'place_order',
  assetIn: { token: 'BTC', amount: '0.01' },
  metadata,
  referenceId,
});
const equity = (referenceId: string, metadata: Record<string, unknown>) => ({
  protocol: 'alpaca',
  action: 'place_order',
  assetIn: { token: 'AAPL', amount: '1' },
  metadata,
  referenceId,
});

async function fresh(): Promise<void> {
  alpaca.controls.market.setPrice('AAPL', 161.2 + Math.random() / 10);
  hl.controls.pushL2Book('BTC');
  await eventually(
    async () => {
      const [a, b] = await Promise.all([gw.json('/api/v1/public/markets/AAPL/orderbook'), gw.json('/api/v1/public/markets/BTC/orderbook')]);
      return a.body.freshness?.stale === false && b.body.freshness?.stale === false;
    },
    20_000,
    'fresh books on both venues',
  );
}

/** Preview then execute; the preview's expected state is kept beside the execution's answer. */
async function previewAndExecute(order: Record<string, unknown>): Promise<{ status: number; body: any; expected: string }> {
  await fresh();
  const preview = await send('POST', '/api/v1/execute/preview', keys.full, order);
  return { ...(await send('POST', '/api/v1/execute', keys.full, order)), expected: preview.body.quote?.expectedFillState };
}

beforeAll(async () => {
  hl = await startHyperliquidReplay({ perpCount: 10, trading: { accounts: [{ address: master.address, agents: [agent.address], usdc: '100000' }] } });
  alpaca = await startAlpacaReplay({ keyId: ALPACA_KEY_ID, secret: ALPACA_SECRET });
  keys = writeBootstrap(TEST_WALLET.address);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  gw = await startVenueGateway(
    {
      bootstrapPath: keys.path,
      siweDomain: SIWE_DOMAIN,
      venueEnv: {
        ...hyperliquidOrderEnv(hl, master.address, agentKey),
        ALPACA_KEY_ID,
        ALPACA_SECRET_KEY: ALPACA_SECRET,
        ALPACA_TRADING_URL: alpaca.urls.trading,
        ALPACA_DATA_URL: alpaca.urls.data,
        ALPACA_DATA_STREAM_URL: alpaca.urls.dataStreamHost,
        ALPACA_SYMBOLS: 'AAPL',
        ALPACA_POLL_MS: '1000',
        ALPACA_TIMEOUT_MS: '1500',
        ALPACA_ORDERS: 'paper',
        ALPACA_ORDERS_ACCOUNT: 'acct-1',
      },
    },
    pino(loggerOptions('debug'), sink),
  );
  await eventually(async () => (await gw.json('/api/v1/public/markets/BTC')).status === 200, 30_000, 'the BTC listing');
  await eventually(async () => (await gw.json('/api/v1/public/markets/AAPL')).status === 200, 30_000, 'the AAPL listing');
  wallet = await walletSession(gw);
  const scope = btcPerpSession({ protocols: ['hyperliquid', 'alpaca'], assets: ['BTC', 'AAPL'] }, Date.now());
  expect((await send('POST', '/api/v1/agent-sessions', wallet, scope)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await gw?.close();
  await hl?.close();
  await alpaca?.close();
});

describe('venue credentials never leave the gateway', () => {
  it('through every flow: fills, resting orders, cancels, refusals, no answer, account reads', async () => {
    const market = await previewAndExecute(perp('sec-hl-market', { side: 'buy', type: 'market' }));
    expect([market.status, market.body.state]).toEqual([200, 'filled']);
    const resting = await previewAndExecute(perp('sec-hl-rest', { side: 'buy', type: 'limit', price: '10000', timeInForce: 'gtc' }));
    expect([resting.expected, resting.body.state]).toEqual(['open', 'open']);
    expect((await send('DELETE', `/api/v1/execute/executions/${resting.body.executionId}`, keys.full)).body.state).toBe('cancelled');

    hl.controls.rejectNextOrder('Insufficient margin to place order. asset=0');
    const refused = await previewAndExecute(perp('sec-hl-refused', { side: 'buy', type: 'limit', price: '10000', timeInForce: 'gtc' }));
    expect(refused.body.code).toBe('INSUFFICIENT_BALANCE');
    hl.controls.hangNextExchange('placed');
    const unknown = await previewAndExecute(perp('sec-hl-unknown', { side: 'buy', type: 'limit', price: '10000', timeInForce: 'gtc' }));
    expect(unknown.body.state).toBe('unknown');

    const open = await previewAndExecute(equity('sec-al-rest', { side: 'buy', type: 'limit', price: '100', timeInForce: 'gtc' }));
    expect([open.expected, open.body.state]).toEqual(['open', 'open']);
    expect((await send('DELETE', `/api/v1/execute/executions/${open.body.executionId}`, keys.full)).body.state).toBe('cancelled');
    alpaca.controls.http.rateLimit({ api: 'trading', method: 'POST', path: '/v2/orders', retryAfterSeconds: 3 });
    const limited = await previewAndExecute(equity('sec-al-429', { side: 'buy', type: 'market' }));
    expect(limited.body.code).toBe('VENUE_UNHEALTHY');
    alpaca.controls.http.serverError({ api: 'trading', method: 'POST', path: '/v2/orders' });
    expect((await previewAndExecute(equity('sec-al-500', { side: 'buy', type: 'market' }))).body.state).toBe('unknown');

    // The reads that show the venues: positions, portfolio, status, protocols, capabilities, audit, executions, GraphQL, MCP, metrics.
    await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
    for (const path of [
      '/api/v1/data/positions',
      '/api/v1/data/portfolio',
      '/api/v1/public/status',
      '/api/v1/public/data/protocols.json',
      '/api/v1/capabilities',
      '/api/v1/audit?limit=200',
      '/api/v1/execute/executions?limit=50',
      '/metrics',
    ])
      expect((await send('GET', path, keys.full)).status).toBe(200);
    const gql = await send('POST', '/graphql', keys.full, {
      query: '{ positions { data { venues { protocol account available { token amount } } } } status { data { venues { id mode } } } }',
    });
    expect(gql.status).toBe(200);
    const mcp = new Client({ name: 'secret-scan', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${gw.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys.full}` } } }));
    for (const name of ['getPositions', 'getPortfolio', 'listExecutions']) answers.push(JSON.stringify(await mcp.callTool({ name, arguments: {} })));
    await mcp.close();
    // A malformed request to each route that takes a body: the error says what is wrong, never a credential.
    await send('POST', '/api/v1/execute/preview', keys.full, { ...perp('sec-bad', { side: 'buy', type: 'limit', price: 'x' }) });
  }, 120_000);

  it('in no log line, answer or metric, in any form', () => {
    const forms = [
      agentKey,
      agentKey.slice(2),
      agentKey.slice(2).toUpperCase(),
      ALPACA_SECRET,
      ALPACA_KEY_ID,
      Buffer.from(agentKey.slice(2), 'hex').toString('base64'),
    ];
    const logs = logLines.join('');
    const all = answers.join('\n');
    expect(logLines.length).toBeGreaterThan(20);
    expect(answers.length).toBeGreaterThan(20);
    for (const secret of forms) {
      expect(logs.includes(secret), `a log line holds a credential form (${secret.length} chars)`).toBe(false);
      expect(all.includes(secret), `an answer holds a credential form (${secret.length} chars)`).toBe(false);
    }
    // The venues did hear the credentials (the scan is not vacuous): Alpaca's fake saw the key pair.
    expect(alpaca.controls.http.requests({ api: 'trading' }).some((r) => r.headers['apca-api-secret-key'] === ALPACA_SECRET)).toBe(true);
    // And the public account address is shown where it belongs.
    expect(all.toLowerCase()).toContain(master.address.toLowerCase());
  });
});
