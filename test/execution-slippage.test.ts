import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { call, SESSION_TIME } from './support/execution.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

let gw: TestGateway;
let keys: BootstrapKeys;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
  const wallet = await walletSession(gw);
  const session = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
    apiKeyId: 'k-full',
    protocols: ['paper-swap'],
    actions: ['swap'],
    assets: ['USDC'],
    maxOrderNotional: '100000',
    maxPeriodNotional: '1000000',
    periodSeconds: 3600,
    expiresAt: new Date(SESSION_TIME + 3_600_000).toISOString(),
  });
  expect(session.status).toBe(200);
});
afterAll(() => gw.close());

describe('the swap slippage bound', () => {
  it('is the one the client previewed: a price move past it within the preview rejects the fill', async () => {
    const order = {
      protocol: 'paper-swap',
      action: 'swap',
      assetIn: { token: 'USDC', amount: '1000' },
      metadata: { tokenOut: 'WETH', slippageBps: 10 },
      referenceId: 'slip-1',
    };
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).json();
    // The simulator's WETH price rises about 26 bps in the next 10 s: fewer WETH per USDC.
    gw.clock.advance(10_000);
    await gw.app.services.ingest.pollAll();
    const res = await (await call(gw, 'POST', '/api/v1/execute', keys.full, order)).json();
    expect(res.state).toBe('rejected');
    expect(res.reason).toContain(preview.quote.minAmountOut);
  });

  it('fills when the price stays within it', async () => {
    const order = {
      protocol: 'paper-swap',
      action: 'swap',
      assetIn: { token: 'USDC', amount: '1000' },
      metadata: { tokenOut: 'WETH', slippageBps: 100 },
      referenceId: 'slip-2',
    };
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).json();
    const res = await (await call(gw, 'POST', '/api/v1/execute', keys.full, order)).json();
    expect(res.state).toBe('filled');
    const weth = (await (await call(gw, 'GET', '/api/v1/data/portfolio', keys.full)).json()).data.balances.find((b: { token: string }) => b.token === 'WETH');
    expect(Number(weth.amount) - 2).toBeGreaterThanOrEqual(Number(preview.quote.minAmountOut));
  });
});
