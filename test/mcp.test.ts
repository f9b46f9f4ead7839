import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, perpOrder, SESSION_TIME, btcPerpSession } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

/** The /mcp endpoint with the SDK's own client over Streamable HTTP, against a real gateway. */
let gw: TestGateway;
let keys: BootstrapKeys;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
});
afterAll(() => gw.close());

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

const textOf = (result: any) => JSON.parse(result.content[0].text);

describe('MCP tools at /mcp', () => {
  it('lists tools generated from the workflow nodes, with input and output schemas; says why one is unavailable', async () => {
    const client = await connect(keys.full);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'listPublicMarkets',
      'getPublicMarketHistory',
      'getOrderBook',
      'getPerpFunding',
      'getPortfolio',
      'getPositions',
      'previewExecution',
      'execute',
      'listExecutions',
    ])
      expect(names).toContain(name);
    const history = tools.find((t) => t.name === 'getPublicMarketHistory')!;
    expect(history.inputSchema.required).toEqual(['asset']);
    expect(Object.keys(history.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['resolution', 'limit', 'cursor']));
    expect(history.outputSchema?.type).toBe('object');
    // No agent session yet: execute is listed with the reason.
    expect(tools.find((t) => t.name === 'execute')!.description).toMatch(/Not available to this caller now: No active agent session/);
    await client.close();
  });

  it('calls a read with structured output', async () => {
    const client = await connect(keys.readOnly);
    const result: any = await client.callTool({ name: 'getPerpPrice', arguments: { asset: 'BTC' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.data).toMatchObject({ marketId: 'BTC-PERP' });
    await client.close();
  });

  it('previews and executes within an agent session; over the session cap the refusal is a tool error with the gateway code', async () => {
    const wallet = await walletSession(gw);
    const session = await call(
      gw,
      'POST',
      '/api/v1/agent-sessions',
      wallet,
      btcPerpSession({ maxOrderNotional: '10000', maxPeriodNotional: '15000' }, gw.clock.now()),
    );
    expect(session.status).toBe(200);
    const client = await connect(keys.full);
    const order = perpOrder('mcp-1', { assetIn: { token: 'BTC', amount: '0.01' } });
    const preview: any = await client.callTool({ name: 'previewExecution', arguments: order });
    expect(preview.structuredContent.executable).toBe(true);
    const executed: any = await client.callTool({ name: 'execute', arguments: order });
    expect(executed.isError).toBeFalsy();
    expect(executed.structuredContent).toMatchObject({ referenceId: 'mcp-1', state: 'filled', principalKind: 'api_key' });
    const listed: any = await client.callTool({ name: 'listExecutions', arguments: { limit: 5 } });
    expect(listed.structuredContent.data.executions.map((e: any) => e.referenceId)).toEqual(['mcp-1']);
    const big = perpOrder('mcp-2', { assetIn: { token: 'BTC', amount: '1' } });
    await client.callTool({ name: 'previewExecution', arguments: big });
    const refused: any = await client.callTool({ name: 'execute', arguments: big });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatchObject({ code: 'POLICY_DENIED', details: { gate: 'authority' } });
    await client.close();
  });

  it('bounds the body like every route: over the limit 413, malformed JSON 400, both in the gateway error shape', async () => {
    const post = (body: string) =>
      fetch(`${gw.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.full}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
    const huge = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(200_000) } }));
    expect([huge.status, ((await huge.json()) as { code: string }).code]).toEqual([413, 'payload_too_large']);
    const malformed = await post('{"jsonrpc": "2.0", ');
    expect([malformed.status, ((await malformed.json()) as { code: string }).code]).toEqual([400, 'invalid_request']);
  });

  it('refuses a missing or unknown key with 401 in the gateway error shape, and is listed in capabilities', async () => {
    const res = await gw.get('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthenticated', retryable: false });
    const caps = await (await call(gw, 'GET', '/api/v1/capabilities', keys.readOnly)).json();
    expect(caps.data.interfaces.mcp).toMatchObject({ endpoint: '/mcp', transport: 'streamable-http' });
  });
});
