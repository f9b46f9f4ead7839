import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../src/config/gateway-config.js';
import { ROUTED_UNSEEN_MS } from '../src/execution/execution-reconciler.js';
import type { Execution } from '../src/execution/execution-types.js';
import { btcPerpSession, call, perpOrder, SESSION_TIME } from './support/execution.js';
import { Faults, type StoreFault } from './support/faults.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { eventually } from './support/venue-gateway.js';
import { redisForSuites, TEST_REDIS_URL, uniquePrefix } from './support/redis.js';
import { ScriptedRoutedVenue } from './support/scripted-routed-venue.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * The money path's fault matrix on a venue that holds orders: the store failing at each step of a
 * routed execution (never arriving, or arriving with its answer lost, then staying down) and the
 * venue giving no answer (the order taken, or lost on the way), on every backend. After the store
 * is back and the reconciler has asked the venue: every execution agrees with the venue's record
 * of its client order id, no referenceId ever reached the venue as two orders, every answer a
 * client got is true of the final state, and the audit chain verifies.
 */
type Point = { name: string; fault?: Omit<StoreFault, 'mode' | 'outage'>; venue?: 'placed' | 'lost' };

const POINTS: Point[] = [
  { name: 'claim', fault: { store: 'idempotency', method: 'claim', nth: 1 } },
  { name: 'record', fault: { store: 'executions', method: 'create', nth: 1 } },
  { name: 'spend', fault: { store: 'agentSessions', method: 'addSpend', nth: 1 } },
  { name: 'claim binding', fault: { store: 'idempotency', method: 'complete', nth: 1 } },
  { name: 'submitted state', fault: { store: 'executions', method: 'update', nth: 1 } },
  { name: 'client order id stored', fault: { store: 'executions', method: 'update', nth: 2 } },
  { name: 'order lock (after the venue took it)', fault: { store: 'idempotency', method: 'claim', nth: 2 } },
  { name: 'venue answer recorded', fault: { store: 'executions', method: 'update', nth: 3 } },
  { name: 'venue took it, no answer', venue: 'placed' },
  { name: 'venue lost it, no answer', venue: 'lost' },
];

const redisUp = await redisForSuites();
const BACKENDS: { name: string; config: () => Partial<GatewayConfig>; skip?: boolean }[] = [
  { name: 'memory', config: () => ({}) },
  { name: 'sqlite', config: () => ({ dataDir: mkdtempSync(join(tmpdir(), 'gw-routed-faults-')) }) },
  { name: 'redis', config: () => ({ mode: 'redis', redisUrl: TEST_REDIS_URL, redisKeyPrefix: uniquePrefix('routed-faults') }), skip: !redisUp },
];

interface Answer {
  ref: string;
  status: number;
  body: { state?: string; code?: string; message?: string; executionId?: string };
}

const limit = (ref: string) =>
  perpOrder(ref, { assetIn: { token: 'BTC', amount: '0.01' }, metadata: { side: 'buy', type: 'limit', price: '60000', timeInForce: 'gtc' } });

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`routed execution faults: ${backend.name}`, () => {
    let gw: TestGateway;
    let keys: BootstrapKeys;
    let venue: ScriptedRoutedVenue;
    const faults = new Faults();
    const answers: Answer[] = [];

    beforeAll(async () => {
      keys = writeBootstrap(TEST_WALLET.address);
      gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN, ...backend.config() }, SESSION_TIME, {
        faults: {
          ...faults.options,
          venues: (venues) => {
            venue = new ScriptedRoutedVenue(venues.get('paper-perps')!);
            return new Map([...venues, ['paper-perps', venue]]);
          },
        },
      });
      const wallet = await walletSession(gw);
      expect((await call(gw, 'POST', '/api/v1/agent-sessions', wallet, btcPerpSession({}, gw.clock.now()))).status).toBe(200);
    });
    afterAll(() => gw?.close());

    for (const point of POINTS) {
      for (const mode of point.venue ? (['venue'] as const) : (['before', 'lost'] as const)) {
        it(`${point.name}, ${mode}: the answer is true, and nothing reaches the venue twice`, async () => {
          const ref = `rf-${point.name.replace(/\W+/g, '-')}-${mode}`;
          expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, limit(ref))).status).toBe(200);
          const before = faults.fired;
          if (point.venue) venue.noAnswerNext(point.venue);
          else faults.arm({ ...point.fault!, mode: mode as 'before' | 'lost', outage: true });
          const res = await call(gw, 'POST', '/api/v1/execute', keys.full, limit(ref));
          const answer: Answer = { ref, status: res.status, body: await res.json() };
          faults.heal();
          answers.push(answer);
          if (!point.venue) expect(faults.fired).toBe(before + 1);
          // A 503 says nothing was sent; a 200 says what the venue holds, or that it is unknown.
          if (answer.status !== 200) expect([answer.status, answer.body.code]).toEqual([503, 'POLICY_UNAVAILABLE']);
          else expect(['open', 'unknown']).toContain(answer.body.state);
          await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
        });
      }
    }

    it('after recovery: each execution agrees with the venue, one order per referenceId at most, answers true, replays too, audit verifies', async () => {
      // Orders the venue never saw end failed once they can no longer land.
      gw.clock.advance(ROUTED_UNSEEN_MS + 1_000);
      const { executions } = gw.app.stores.execution;
      // An order lock taken with its answer lost is held until its TTL (Redis keeps real time): the next passes finish.
      await eventually(
        async () => {
          await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
          const open = await executions.listOpen(100);
          return open.every((e) => e.state === 'open' && e.order?.resting);
        },
        20_000,
        'every execution settled or resting at the venue',
      );
      const finals = new Map<string, Execution | undefined>();
      for (const a of answers) finals.set(a.ref, await executions.findByReference('acct-1', a.ref));
      console.log(
        `routed fault matrix (${backend.name}):`,
        Object.fromEntries(answers.map((a) => [a.ref, `${a.status} ${a.body.state ?? a.body.code} -> ${finals.get(a.ref)?.state ?? 'none'}`])),
      );
      for (const a of answers) {
        const final = finals.get(a.ref);
        const clientOrderId = venue.clientOrderIdFor('acct-1', a.ref);
        const atVenue = venue.orders.get(clientOrderId);
        // Never two orders for one referenceId: one client order id, and the venue holds it once.
        expect(new Set(venue.placed.filter((id) => id === clientOrderId)).size).toBeLessThanOrEqual(1);
        if (atVenue) {
          // The venue holds it: the execution says so (open, resting), whatever the client heard.
          expect(final?.state).toBe('open');
          expect(final?.order).toMatchObject({ clientOrderId, resting: true });
          expect(a.status === 200 && ['open', 'unknown'].includes(a.body.state!)).toBe(true);
        } else {
          // It never reached the venue: no execution, or one ended failed without a fill.
          expect(final === undefined || (final.state === 'failed' && final.fill === null)).toBe(true);
          if (a.status === 200) expect(a.body.state).toBe('unknown');
        }
      }
      // A replay of the same body tells the final truth, and sends nothing more.
      const sent = venue.placed.length;
      for (const a of answers.filter((x) => x.status === 200)) {
        const replay = await (await call(gw, 'POST', '/api/v1/execute', keys.full, limit(a.ref))).json();
        expect(replay.state).toBe(finals.get(a.ref)!.state);
      }
      expect(venue.placed.length).toBe(sent);
      const audit = await (await call(gw, 'GET', '/api/v1/audit?limit=500', keys.full)).json();
      expect(audit.chainValid).toBe(true);
    });
  });
}
