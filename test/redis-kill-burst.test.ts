import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../src/domain/decimal.js';
import { call, perpOrder, btcPerpSession } from './support/execution.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { PrivateRedis, redisServerForSuites, uniquePrefix } from './support/redis.js';
import { eventually, Replica } from './support/replicas.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * Issue 9's scenario: two replicas, an agent key, 30 previewed market buys sent at once, `kill -9`
 * of Redis mid-burst, Redis restarted on the same append-only files. Once the reconcilers have
 * run, every answer a client got agrees with the final state, none is left `accepted` or
 * `submitted`, and the BTC position moved by exactly the sum of the fills.
 */
const canRun = redisServerForSuites();
const ORDERS = 30;

describe.skipIf(!canRun)('Redis killed in the middle of a burst of executions', () => {
  let server: PrivateRedis;
  let a: Replica;
  let b: Replica;
  let keys: BootstrapKeys;
  const prefix = uniquePrefix('burst');

  beforeAll(async () => {
    server = await PrivateRedis.start({ appendonly: true });
    keys = writeBootstrap(TEST_WALLET.address);
    const env = {
      REDIS_URL: server.url,
      REDIS_KEY_PREFIX: prefix,
      GATEWAY_BOOTSTRAP: keys.path,
      GATEWAY_SIWE_DOMAIN: SIWE_DOMAIN,
      RATE_LIMIT_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
    };
    [a, b] = await Promise.all([Replica.start('burst-a', env), Replica.start('burst-b', env)]);
    const wallet = await walletSession(a);
    const session = await call(b, 'POST', '/api/v1/agent-sessions', wallet, btcPerpSession());
    expect(session.status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await server?.kill();
  });

  const position = async () => {
    const portfolio = (await (await call(a, 'GET', '/api/v1/data/portfolio', keys.full)).json()) as { data: { balances: { token: string; amount: string }[] } };
    return new Decimal(portfolio.data.balances.find((x) => x.token === 'position:BTC-PERP')?.amount ?? 0);
  };

  it('every answer matches the final state and the ledger moved by exactly the fills', async () => {
    const burst = async (label: string) => {
      const orders = Array.from({ length: ORDERS }, (_, i) => perpOrder(`${label}-${i}`, { assetIn: { token: 'BTC', amount: '0.001' } }));
      for (const [i, order] of orders.entries()) expect((await call(i % 2 ? a : b, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
      return orders;
    };
    const orders = await burst('burst');
    const before = await position();
    const watcher = createClient({ url: server.url, socket: { reconnectStrategy: false } });
    watcher.on('error', () => undefined);
    await watcher.connect();

    const sent = Promise.all(
      orders.map(async (order, i) => {
        const res = await call(i % 2 ? a : b, 'POST', '/api/v1/execute', keys.full, order);
        return { ref: order.referenceId, status: res.status, body: (await res.json()) as { state?: string; code?: string; message?: string } };
      }),
    );
    // Killed as the venue books the first orders of the burst: the others are then anywhere between
    // their claim and their answer, whatever this machine's speed.
    const t0 = performance.now();
    while ((await watcher.hLen(`${prefix}venue-orders:acct-1`)) < 3 && performance.now() - t0 < 5_000) await new Promise((r) => setImmediate(r));
    const killedAfterMs = Math.round(performance.now() - t0);
    await server.kill();
    if (watcher.isOpen) watcher.destroy();
    const answers = await sent;
    await server.start();
    await eventually(
      'both replicas reconnect',
      async () => (await a.status()).body.data.sharedState.connected && (await b.status()).body.data.sharedState.connected,
      20_000,
    );

    // The reconcilers (every 5 s, after a 10 s grace for requests in flight) finish what is open.
    const finals = await eventually(
      'every execution is final',
      async () => {
        const states = await Promise.all(
          answers.map(async ({ ref }) => {
            const res = await call(b, 'GET', `/api/v1/execute/references/${ref}`, keys.full);
            return res.status === 404 ? null : ((await res.json()) as { state: string; fill: { filledAmount: string } | null });
          }),
        );
        return states.every((s) => s === null || ['filled', 'partially_filled', 'rejected', 'failed'].includes(s.state)) && states;
      },
      40_000,
      500,
    );
    const tally: Record<string, number> = {};
    let filled = new Decimal(0);
    for (const [i, answer] of answers.entries()) {
      const final = finals[i];
      const key = `${answer.status} ${answer.body.state ?? answer.body.code} -> ${final?.state ?? 'none'}`;
      tally[key] = (tally[key] ?? 0) + 1;
      if (answer.status === 503) {
        // Refused before the claim (a gate could not read shared state), or after it but short of the venue.
        expect(['POLICY_UNAVAILABLE', 'VENUE_UNHEALTHY']).toContain(answer.body.code);
        expect(!final || (final.state === 'failed' && final.fill === null)).toBe(true);
      } else {
        expect(answer.status).toBe(200);
        if (answer.body.state !== 'unknown') expect(final?.state).toBe(answer.body.state);
      }
      if (final?.fill) filled = filled.plus(final.fill.filledAmount);
    }
    console.log(`kill -9 ${killedAfterMs} ms into the burst: answer -> final state`, tally);
    expect((await position()).minus(before).toString()).toBe(filled.toString());
    const audit = await (await call(a, 'GET', '/api/v1/audit?limit=1000', keys.full)).json();
    expect(audit.chainValid).toBe(true);
  }, 120_000);
});
