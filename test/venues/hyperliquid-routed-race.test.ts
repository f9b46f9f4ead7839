import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHyperliquidReplay, type HyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import { btcPerpSession, call } from '../support/execution.js';
import { writeBootstrap, type BootstrapKeys } from '../support/keys.js';
import { deleteKeys, redisForSuites, TEST_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { eventually, Replica } from '../support/replicas.js';
import { hyperliquidOrderEnv } from '../support/venue-gateway.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from '../support/wallet.js';

/**
 * Issue 26: two replicas on one Redis, both routing orders to the same Hyperliquid account (the
 * wire fake's exchange, signatures checked), receive the same order at the same moment, again
 * and again: the venue holds exactly one order per referenceId, and both answers are true of it.
 */
const available = await redisForSuites();
const prefix = uniquePrefix('hl-race');
const master = privateKeyToAccount(generatePrivateKey());
const agentKey = generatePrivateKey();
const agent = privateKeyToAccount(agentKey);
const ROUNDS = 6;

describe.skipIf(!available)('two replicas racing one referenceId to Hyperliquid', () => {
  let fake: HyperliquidReplay;
  let replicas: Replica[] = [];
  let keys: BootstrapKeys;

  beforeAll(async () => {
    fake = await startHyperliquidReplay({ perpCount: 10, trading: { accounts: [{ address: master.address, agents: [agent.address], usdc: '1000000' }] } });
    keys = writeBootstrap(TEST_WALLET.address);
    const env = {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      GATEWAY_BOOTSTRAP: keys.path,
      GATEWAY_SIWE_DOMAIN: SIWE_DOMAIN,
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
      RATE_LIMIT_KEY_PER_MINUTE: '100000',
      ...hyperliquidOrderEnv(fake, master.address, agentKey),
    };
    replicas = await Promise.all(['race-a', 'race-b'].map((name) => Replica.start(name, env)));
    const [a] = replicas;
    const gw = { get: (path: string, init?: RequestInit) => fetch(a!.baseUrl + path, init) };
    await eventually(
      'the BTC listing on both',
      async () => (await Promise.all(replicas.map((r) => fetch(`${r.baseUrl}/api/v1/public/markets/BTC`)))).every((r) => r.status === 200),
      30_000,
    );
    const session = await walletSession(gw);
    expect((await call(gw, 'POST', '/api/v1/agent-sessions', session, btcPerpSession({ protocols: ['hyperliquid'] }))).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await fake?.close();
    if (available) await deleteKeys(TEST_REDIS_URL, [prefix]);
  });

  it('the venue holds one order per referenceId; each answer is the execution, a replay of it, or a conflict naming it', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const order = {
        protocol: 'hyperliquid',
        action: 'place_order',
        assetIn: { token: 'BTC', amount: '0.01' },
        metadata: { side: 'buy', type: 'limit', price: '20000', timeInForce: 'gtc' },
        referenceId: `race-${round}`,
      };
      await eventually(
        'a fresh book on both',
        async () => {
          fake.controls.pushL2Book('BTC');
          const books = await Promise.all(replicas.map(async (r) => (await fetch(`${r.baseUrl}/api/v1/public/markets/BTC/orderbook`)).json()));
          return books.every((b: any) => b.freshness?.stale === false);
        },
        20_000,
      );
      const clients = replicas.map((r) => ({ get: (path: string, init?: RequestInit) => fetch(r.baseUrl + path, init) }));
      await Promise.all(clients.map((c) => call(c, 'POST', '/api/v1/execute/preview', keys.full, order)));
      const answers = await Promise.all(clients.map(async (c) => (await call(c, 'POST', '/api/v1/execute', keys.full, order)).json()));
      const orders = fake.controls.orders(master.address).filter((o) => answers.some((a: any) => a.order?.clientOrderId === o.cloid));
      expect(orders, JSON.stringify(answers)).toHaveLength(1);
      const ids = new Set(answers.filter((a: any) => a.executionId).map((a: any) => a.executionId));
      // Both answers name the one execution (the second a replay), or one names it and the other is the conflict.
      expect(ids.size).toBe(1);
      for (const a of answers as any[]) if (!a.executionId) expect(a.code).toBe('IDEMPOTENCY_CONFLICT');
    }
    const byCloid = new Map<string, number>();
    for (const o of fake.controls.orders(master.address)) byCloid.set(o.cloid!, (byCloid.get(o.cloid!) ?? 0) + 1);
    expect([...byCloid.values()].every((n) => n === 1)).toBe(true);
    expect(byCloid.size).toBe(ROUNDS);
  }, 120_000);
});
