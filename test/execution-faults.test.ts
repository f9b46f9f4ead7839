import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../src/domain/decimal.js';
import type { GatewayConfig } from '../src/config/gateway-config.js';
import type { Execution } from '../src/execution/execution-types.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { Faults, type StoreFault } from './support/faults.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { redisForSuites, TEST_REDIS_URL, uniquePrefix } from './support/redis.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * The money path under faults (issue 9): the store failing at each step of an execution (the
 * call never arriving, or arriving with its answer lost, then staying down) and the venue
 * throwing, on every backend. After the store is back and the reconciler has run: every
 * execution is final, the ledger moved by exactly the fills, the session spend counts exactly
 * the fills, the audit chain verifies, and every answer a client got agrees with the final state.
 */
type Point = { name: string; fault?: Omit<StoreFault, 'mode' | 'outage'>; venue?: true };

const POINTS: Point[] = [
  { name: 'claim', fault: { store: 'idempotency', method: 'claim', nth: 1 } },
  { name: 'record (after claim)', fault: { store: 'executions', method: 'create', nth: 1 } },
  { name: 'spend (after record)', fault: { store: 'agentSessions', method: 'addSpend', nth: 1 } },
  { name: 'claim binding', fault: { store: 'idempotency', method: 'complete', nth: 1 } },
  { name: 'submitted state', fault: { store: 'executions', method: 'update', nth: 1 } },
  { name: 'venue booking (ledger)', fault: { store: 'ledger', method: 'book', nth: 1 } },
  { name: 'final state (after ledger)', fault: { store: 'executions', method: 'update', nth: 2 } },
  { name: 'spend settlement (after venue)', fault: { store: 'agentSessions', method: 'settleSpend', nth: 1 } },
  { name: 'venue throws', venue: true },
];

const redisUp = await redisForSuites();
const BACKENDS: { name: string; config: () => Partial<GatewayConfig>; skip?: boolean }[] = [
  { name: 'memory', config: () => ({}) },
  { name: 'sqlite', config: () => ({ dataDir: mkdtempSync(join(tmpdir(), 'gw-faults-')) }) },
  { name: 'redis', config: () => ({ mode: 'redis', redisUrl: TEST_REDIS_URL, redisKeyPrefix: uniquePrefix('faults') }), skip: !redisUp },
];

interface Answer {
  ref: string;
  status: number;
  body: { state?: string; code?: string; message?: string };
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`execution faults: ${backend.name}`, () => {
    let gw: TestGateway;
    let keys: BootstrapKeys;
    let sessionId: string;
    let wallet: string;
    const faults = new Faults();
    const answers: Answer[] = [];

    beforeAll(async () => {
      keys = writeBootstrap(TEST_WALLET.address);
      gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN, ...backend.config() }, SESSION_TIME, { faults: faults.options });
      wallet = await walletSession(gw);
      const session = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
        apiKeyId: 'k-full',
        protocols: ['paper-perps'],
        actions: ['place_order'],
        assets: ['BTC'],
        maxOrderNotional: '100000',
        maxPeriodNotional: '1000000',
        periodSeconds: 3600,
        expiresAt: new Date(gw.clock.now() + 3_600_000).toISOString(),
      });
      sessionId = (await session.json()).id;
    });
    afterAll(() => gw?.close());

    const send = async (ref: string, arm: () => void) => {
      const order = perpOrder(ref, { assetIn: { token: 'BTC', amount: '0.01' } });
      expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
      arm();
      const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
      const answer = { ref, status: res.status, body: await res.json() };
      faults.heal();
      answers.push(answer);
      return answer;
    };

    for (const point of POINTS) {
      for (const mode of point.venue ? (['before'] as const) : (['before', 'lost'] as const)) {
        it(`${point.name}, ${point.venue ? 'venue error' : mode}: the answer is true and the reconciler finishes it`, async () => {
          const ref = `f-${point.name.replace(/\W+/g, '-')}-${mode}`;
          const before = faults.fired;
          const answer = await send(ref, () => (point.venue ? faults.failVenue() : faults.arm({ ...point.fault!, mode, outage: true })));
          expect(faults.fired).toBe(before + 1);
          // Never the old lie: a 503 says nothing was executed only when nothing reached the venue.
          if (answer.status !== 200) expect([answer.status, answer.body.code]).toEqual([503, 'POLICY_UNAVAILABLE']);
          else expect(['filled', 'unknown']).toContain(answer.body.state);
          // Once the referenceId was claimed, the 503 names the claimed execution and says it was never sent.
          if (answer.status === 503 && /exe_/.test(answer.body.message)) expect(answer.body.message).toMatch(/was not sent and will not be/);
          // An unknown outcome says how to learn it; a known one has nothing to do.
          if (answer.status === 200) expect(answer.body.nextAction === null).toBe(answer.body.state !== 'unknown');
          if (answer.body.state === 'unknown') expect(answer.body.nextAction).toMatch(/^reconcile by referenceId/);
          await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
        });
      }
    }

    const INTERACTIVE: Point[] = [
      { name: 'approval consumption', fault: { store: 'approvals', method: 'consume', nth: 1 } },
      { name: 'venue booking', fault: { store: 'ledger', method: 'book', nth: 1 } },
      { name: 'venue throws', venue: true },
    ];
    for (const point of INTERACTIVE) {
      for (const mode of point.venue ? (['before'] as const) : (['before', 'lost'] as const)) {
        it(`interactive, ${point.name}, ${mode}: the approval stays consumed only if the order reached the venue`, async () => {
          const ref = `fi-${point.name.replace(/\W+/g, '-')}-${mode}`;
          const order = perpOrder(ref, { assetIn: { token: 'BTC', amount: '0.01' } });
          expect((await call(gw, 'POST', '/api/v1/execute/preview', wallet, order)).status).toBe(200);
          const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', wallet, order)).json();
          const req = approval.approveRequest;
          const signed = await signedMessage(gw, { statement: req.statement, resources: req.resources });
          expect((await call(gw, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, wallet, { decision: 'approve', ...signed })).status).toBe(200);
          if (point.venue) faults.failVenue();
          else faults.arm({ ...point.fault!, mode, outage: true });
          const res = await call(gw, 'POST', '/api/v1/execute', wallet, { ...order, approvalId: approval.approvalId });
          const answer = { ref, status: res.status, body: await res.json() };
          faults.heal();
          answers.push(answer);
          await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
          const { executions, ledger, approvals } = gw.app.stores.execution;
          const final = await executions.findByReference('acct-1', ref);
          const reached = final ? JSON.parse((await ledger.order('acct-1', final.id)) ?? '{"state":"void"}').state !== 'void' : false;
          const after = (await approvals.get(approval.approvalId))!;
          if (reached) expect(after).toMatchObject({ state: 'consumed', executionId: final!.id });
          else expect(after).toMatchObject({ state: 'approved', executionId: null });
        });
      }
    }

    it('a venue answering late while the reconciler runs: the order is voided first, the late booking refused, the answer failed', async () => {
      const reconcile = async () => {
        await new Promise((r) => setTimeout(r, 50));
        return gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
      };
      const answer = await send('f-venue-late', () => faults.slowVenue(300, reconcile));
      expect([answer.status, answer.body.state]).toEqual([200, 'failed']);
    });

    it('after recovery: every execution final, ledger and spend equal the fills, answers agree, replays tell the truth, audit verifies', async () => {
      await gw.app.services.execution.reconciler.runOnce({ graceMs: 0 });
      const { executions, ledger, agentSessions } = gw.app.stores.execution;
      expect(await executions.listOpen(100)).toEqual([]);

      const finals = new Map<string, Execution | undefined>();
      for (const a of answers) finals.set(a.ref, await executions.findByReference('acct-1', a.ref));
      const summary = Object.fromEntries(answers.map((a) => [a.ref, `${a.status} ${a.body.state ?? a.body.code} -> ${finals.get(a.ref)?.state ?? 'none'}`]));
      console.log(`fault matrix (${backend.name}):`, summary);
      for (const a of answers) {
        const final = finals.get(a.ref);
        if (a.status === 503) {
          // "Nothing was executed": no execution, or one that never reached the venue.
          expect(final === undefined || (final.state === 'failed' && final.fill === null)).toBe(true);
          if (final) expect(JSON.parse((await ledger.order('acct-1', final.id))!)).toMatchObject({ state: 'void' });
        } else if (a.body.state !== 'unknown') {
          expect(final?.state).toBe(a.body.state);
        }
        if (final) expect(['filled', 'partially_filled', 'rejected', 'failed']).toContain(final.state);
      }

      const filled = [...finals.values()].filter((e): e is Execution => !!e?.fill && (e.state === 'filled' || e.state === 'partially_filled'));
      const sum = (f: (e: Execution) => string) => filled.reduce((s, e) => s.plus(f(e)), new Decimal(0));
      const balances = (await ledger.balances('acct-1'))!;
      expect(new Decimal(balances['position:BTC-PERP'] ?? 0).toString()).toBe(sum((e) => e.fill!.filledAmount).toString());
      // A fill shows its notional to the cent; the ledger books it exactly.
      const usdcMoved = new Decimal(100000).minus(balances.USDC!);
      expect(
        usdcMoved
          .minus(sum((e) => new Decimal(e.fill!.notional).plus(e.fill!.fee).toString()))
          .abs()
          .toNumber(),
      ).toBeLessThanOrEqual(0.01 * filled.length);
      const period = [...finals.values()].find((e) => e?.spend)!.spend!.periodStart;
      const spent = await agentSessions.addSpend(sessionId, period, '0', '1000000000', 3_600_000);
      const sessionFills = filled.filter((e) => e.agentSessionId === sessionId).reduce((t, e) => t.plus(e.fill!.notional), new Decimal(0));
      expect(spent.spent).toBe(sessionFills.toString());

      // A replay of the same body tells the final truth, never `submitted`.
      for (const a of answers.filter((x) => x.status === 200)) {
        const order = perpOrder(a.ref, { assetIn: { token: 'BTC', amount: '0.01' } });
        const replay = await (await call(gw, 'POST', '/api/v1/execute', keys.full, order)).json();
        expect(replay.state).toBe(finals.get(a.ref)!.state);
      }
      const audit = await (await call(gw, 'GET', '/api/v1/audit?limit=500', keys.full)).json();
      expect(audit.chainValid).toBe(true);
    });
  });
}
