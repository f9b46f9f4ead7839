import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, perpOrder } from './support/execution.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { GATEWAY_ENTRY, Replica } from './support/replicas.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * The embedded default with real gateway processes (`node dist/src/main.js`) on one
 * GATEWAY_DATA_DIR: what the execution plane, identity and the operator controls keep survives
 * kill -9, and a second gateway on the same directory is refused while the first serves on.
 * Perpetuals only: the simulated venues run on the real clock here, and perps trade 24/7.
 */
const OPERATOR = 'operator-token-for-durability-tests-01';
const run = promisify(execFile);

describe('embedded mode: durable across kill -9, one process per data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-durable-'));
  let keys: BootstrapKeys;
  let env: Record<string, string>;
  let first: Replica;
  let gw: Replica;
  let wallet: string;

  beforeAll(async () => {
    keys = writeBootstrap(TEST_WALLET.address);
    env = {
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_BOOTSTRAP: keys.path,
      GATEWAY_SIWE_DOMAIN: SIWE_DOMAIN,
      GATEWAY_OPERATOR_TOKEN: OPERATOR,
      RATE_LIMIT_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_PUBLIC_PER_MINUTE: '100000',
    };
    first = await Replica.start('durable-1', env);
    wallet = await walletSession(first);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([first?.stop(), gw?.stop()]);
  });

  /** Previews, creates and approves (with a fresh signature) an order; returns the approval. */
  async function approve(on: Replica, order: Record<string, unknown>) {
    expect((await call(on, 'POST', '/api/v1/execute/preview', wallet, order)).status).toBe(200);
    const approval = await (await call(on, 'POST', '/api/v1/execute/approvals', wallet, order)).json();
    const signed = await signedMessage(on, { statement: approval.approveRequest.statement, resources: approval.approveRequest.resources });
    expect((await call(on, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, wallet, { decision: 'approve', ...signed })).status).toBe(200);
    return approval as { approvalId: string; approveRequest: { statement: string; resources: string[] } };
  }

  const json = async (res: Promise<Response>) => {
    const r = await res;
    return { status: r.status, body: await r.json(), replayed: r.headers.get('idempotent-replayed') };
  };
  const tokenAmounts = (portfolio: { data: { balances: { token: string; amount: string }[] } }) =>
    Object.fromEntries(portfolio.data.balances.map((b) => [b.token, b.amount]));

  it('keeps approvals, executions, the ledger, the audit chain, sessions, spend and controls through kill -9', async () => {
    // Interactive: an approved, executed (consumed) order, and an approved one not yet executed.
    const executedOrder = perpOrder('dur-executed', { assetIn: { token: 'BTC', amount: '0.01' } });
    const consumed = await approve(first, executedOrder);
    const executed = await json(call(first, 'POST', '/api/v1/execute', wallet, { ...executedOrder, approvalId: consumed.approvalId }));
    expect(executed.status).toBe(200);
    expect(executed.body.state).toBe('filled');
    const pendingOrder = perpOrder('dur-pending', { assetIn: { token: 'BTC', amount: '0.01' } });
    const pending = await approve(first, pendingOrder);

    // Agent: a session whose period cap fits one order of this size and not two.
    const agentOrder = (ref: string) => perpOrder(ref, { assetIn: { token: 'BTC', amount: '0.01' } });
    const probe = await json(call(first, 'POST', '/api/v1/execute/preview', keys.full, agentOrder('dur-probe')));
    const notional = Number(probe.body.quote.notionalUsd);
    const session = await json(
      call(first, 'POST', '/api/v1/agent-sessions', wallet, {
        apiKeyId: 'k-full',
        protocols: ['paper-perps'],
        actions: ['place_order'],
        assets: ['BTC'],
        maxOrderNotional: String(Math.ceil(notional * 1.2)),
        maxPeriodNotional: String(Math.ceil(notional * 1.5)),
        periodSeconds: 3600,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    );
    expect(session.status).toBe(200);
    expect((await call(first, 'POST', '/api/v1/execute/preview', keys.full, agentOrder('dur-agent-1'))).status).toBe(200);
    expect((await json(call(first, 'POST', '/api/v1/execute', keys.full, agentOrder('dur-agent-1')))).body.state).toBe('filled');

    // Operator: swap disabled, the change made at run time.
    expect(
      (await call(first, 'PATCH', '/api/v1/operator/controls', OPERATOR, { protocolId: 'paper-swap', protocolEnabled: false, reason: 'durability drill' }))
        .status,
    ).toBe(200);

    const before = {
      execution: (await json(call(first, 'GET', `/api/v1/execute/executions/${executed.body.executionId}`, wallet))).body,
      portfolio: tokenAmounts((await json(call(first, 'GET', '/api/v1/data/portfolio', keys.readOnly))).body),
      audit: (await json(call(first, 'GET', '/api/v1/audit?limit=1000', wallet))).body,
      controls: (await json(call(first, 'GET', '/api/v1/operator/controls', OPERATOR))).body,
    };
    expect(before.portfolio['position:BTC-PERP'] ?? before.portfolio['BTC-PERP']).toBeDefined();
    expect(before.audit.chainValid).toBe(true);
    expect(before.audit.entries.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['approval_created', 'approval_decided', 'execution']));

    first.kill('SIGKILL');
    expect(await first.exited).toBeNull(); // killed by the signal, no shutdown ran
    gw = await Replica.start('durable-2', env);

    // The wallet session signed in before the kill still authenticates.
    const consumedAfter = await json(call(gw, 'GET', `/api/v1/execute/approvals/${consumed.approvalId}`, wallet));
    expect(consumedAfter.status).toBe(200);
    expect(consumedAfter.body).toMatchObject({ state: 'consumed', executionId: executed.body.executionId });
    // The consumed approval is spent: deciding it again is refused, resubmitting replays the one execution.
    const signed = await signedMessage(gw, consumed.approveRequest);
    expect(
      (await call(gw, 'PATCH', `/api/service/ai/approvals/${consumed.approvalId}`, wallet, { decision: 'approve', ...signed })).status,
    ).toBeGreaterThanOrEqual(400);
    const again = await json(call(gw, 'POST', '/api/v1/execute', wallet, { ...executedOrder, approvalId: consumed.approvalId }));
    expect([again.status, again.replayed, again.body.executionId]).toEqual([200, 'true', executed.body.executionId]);

    // The execution reads the same by id and by referenceId; the ledger holds the fill once.
    expect((await json(call(gw, 'GET', `/api/v1/execute/executions/${executed.body.executionId}`, wallet))).body).toEqual(before.execution);
    expect((await json(call(gw, 'GET', '/api/v1/execute/references/dur-executed', wallet))).body).toEqual(before.execution);
    expect(tokenAmounts((await json(call(gw, 'GET', '/api/v1/data/portfolio', keys.readOnly))).body)).toEqual(before.portfolio);

    // The audit chain is intact.
    const audit = (await json(call(gw, 'GET', '/api/v1/audit?limit=1000', wallet))).body;
    expect(audit.chainValid).toBe(true);
    expect(audit.entries.slice(0, before.audit.entries.length)).toEqual(before.audit.entries);

    // The controls changed at run time are in force.
    expect((await json(call(gw, 'GET', '/api/v1/operator/controls', OPERATOR))).body).toEqual(before.controls);
    expect(before.controls.disabledProtocols).toEqual([expect.objectContaining({ reason: 'durability drill' })]);

    // The agent session survives, and so does its period spend: a second order passes the cap.
    const sessions = (await json(call(gw, 'GET', '/api/v1/agent-sessions', wallet))).body;
    expect(sessions).toEqual([expect.objectContaining({ id: session.body.id, active: true })]);
    expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, agentOrder('dur-agent-2'))).status).toBe(200);
    const capped = await json(call(gw, 'POST', '/api/v1/execute', keys.full, agentOrder('dur-agent-2')));
    expect([capped.status, capped.body.details?.check]).toEqual([403, 'period_cap']);

    // The approval given before the kill (and its preview) still execute, once.
    const late = await json(call(gw, 'POST', '/api/v1/execute', wallet, { ...pendingOrder, approvalId: pending.approvalId }));
    expect([late.status, late.body.state]).toEqual([200, 'filled']);

    // What happened after the restart is chained onto the entries from before it.
    const chained = (await json(call(gw, 'GET', '/api/v1/audit?limit=1000', wallet))).body;
    expect(chained.chainValid).toBe(true);
    expect(chained.entries.slice(0, before.audit.entries.length)).toEqual(before.audit.entries);
    expect(chained.entries.at(-1)).toMatchObject({ type: 'execution', referenceId: 'dur-pending' });
  }, 120_000);

  it('refuses a second gateway on the same data directory in one line, while the first serves on; the keys CLI still works', async () => {
    expect(gw?.alive).toBe(true);
    const second = spawn(process.execPath, [GATEWAY_ENTRY], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    second.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    second.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `gateway: data directory ${dataDir} is in use by another gateway process (pid ${gw.proc.pid}); stop it, or set GATEWAY_DATA_DIR to another directory\n`,
    );

    expect((await gw.status()).status).toBe(200);
    expect((await gw.get('/api/v1/data/portfolio', { headers: bearer(keys.readOnly) })).status).toBe(200);

    // The CLI is no gateway: it shares gateway.db with the running one.
    const cli = (...args: string[]) => run(process.execPath, ['dist/src/cli/keys.js', ...args], { env: { ...process.env, GATEWAY_DATA_DIR: dataDir } });
    const { id, key } = JSON.parse((await cli('create', '--account', 'acct-1', '--scopes', 'data:read')).stdout);
    expect((await gw.get('/api/v1/data/portfolio', { headers: bearer(key) })).status).toBe(200);
    await cli('revoke', id);
    expect((await gw.get('/api/v1/data/portfolio', { headers: bearer(key) })).status).toBe(401);
  }, 60_000);
});
