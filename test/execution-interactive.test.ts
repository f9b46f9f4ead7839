import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { writeBootstrap } from './support/keys.js';
import { OTHER_WALLET, SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from './support/wallet.js';

let gw: TestGateway;
let session: string;
beforeAll(async () => {
  const keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
  session = await walletSession(gw);
});
afterAll(() => gw.close());

/** Preview, create an approval, and sign its decision; returns the approval. */
async function approved(order: Record<string, unknown>, decision: 'approve' | 'reject' = 'approve') {
  expect((await call(gw, 'POST', '/api/v1/execute/preview', session, order)).status).toBe(200);
  const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', session, order)).json();
  const req = decision === 'approve' ? approval.approveRequest : approval.rejectRequest;
  const signed = await signedMessage(gw, { statement: req.statement, resources: req.resources });
  const res = await call(gw, 'PATCH', `/api/service/ai/approvals/${approval.approvalId}`, session, { decision, ...signed });
  expect(res.status).toBe(200);
  return approval;
}

describe('sign-in with Ethereum', () => {
  it('gives a short-lived wallet session for a signed nonce, once', async () => {
    const { message, signature } = await signedMessage(gw);
    const ok = await call(gw, 'POST', '/api/v1/auth/siwe/verify', undefined, { message, signature });
    expect(ok.status).toBe(200);
    const grant = await ok.json();
    expect(grant).toMatchObject({ accountId: 'acct-1', wallet: TEST_WALLET.address });
    expect(grant.sessionToken).toMatch(/^tgws_/);
    expect(Date.parse(grant.expiresAt) - gw.clock.now()).toBe(15 * 60_000);
    const again = await call(gw, 'POST', '/api/v1/auth/siwe/verify', undefined, { message, signature });
    expect(again.status).toBe(401);
    expect((await again.json()).message).toMatch(/nonce/);
  });

  it('refuses a signature by another wallet, a wallet with no account, another domain and a made-up nonce', async () => {
    const other = await signedMessage(gw, { wallet: OTHER_WALLET });
    expect((await call(gw, 'POST', '/api/v1/auth/siwe/verify', undefined, other)).status).toBe(401);
    const forged = await signedMessage(gw);
    const swapped = { message: forged.message, signature: (await signedMessage(gw, { wallet: OTHER_WALLET })).signature };
    expect((await (await call(gw, 'POST', '/api/v1/auth/siwe/verify', undefined, swapped)).json()).message).toMatch(/signature/);
    const unknownNonce = await signedMessage(gw, { nonce: 'abcdefghijklmnop1234' });
    expect((await call(gw, 'POST', '/api/v1/auth/siwe/verify', undefined, unknownNonce)).status).toBe(401);
  });
});

describe('interactive flow: preview → approval → wallet re-authentication → one-time execution', () => {
  it('executes an approved instruction once, fills from the book and moves balances', async () => {
    const order = perpOrder('int-1');
    const preview = await (await call(gw, 'POST', '/api/v1/execute/preview', session, order)).json();
    // A wallet's preview passes authority on the condition it states: an approval of this exact instruction.
    expect(preview.gates.find((g: any) => g.gate === 'authority')).toMatchObject({ status: 'pass', reason: expect.stringMatching(/approval/) });
    expect(preview.gates.map((g: any) => g.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
    expect(preview.quote).toMatchObject({ marketId: 'BTC-PERP', side: 'buy', amount: '0.1' });
    const approval = await approved(order);
    expect(approval.instructionHash).toBe(preview.instructionHash);
    const res = await call(gw, 'POST', '/api/v1/execute', session, { ...order, approvalId: approval.approvalId });
    expect(res.status).toBe(200);
    const execution = await res.json();
    expect(execution).toMatchObject({ state: 'filled', approvalId: approval.approvalId, principalKind: 'wallet_session' });
    expect(execution.history.map((h: any) => h.state)).toEqual(['accepted', 'submitted', 'filled']);
    const after = await (await call(gw, 'GET', `/api/v1/execute/approvals/${approval.approvalId}`, session)).json();
    expect(after).toMatchObject({ state: 'consumed', executionId: execution.executionId });
    expect((await (await call(gw, 'GET', `/api/v1/execute/references/int-1`, session)).json()).executionId).toBe(execution.executionId);
    expect((await (await call(gw, 'GET', `/api/v1/execute/executions/${execution.executionId}`, session)).json()).state).toBe('filled');
    const query = `{ execution(executionId: "${execution.executionId}") { state approval { approvalId state execution { executionId } } } }`;
    const linked = await (await call(gw, 'POST', '/graphql', session, { query })).json();
    expect(linked.data.execution).toEqual({
      state: 'filled',
      approval: { approvalId: approval.approvalId, state: 'consumed', execution: { executionId: execution.executionId } },
    });
  });

  it('replays the same body with Idempotent-Replayed and never runs it twice', async () => {
    const order = perpOrder('int-replay');
    const approval = await approved(order);
    const first = await (await call(gw, 'POST', '/api/v1/execute', session, { ...order, approvalId: approval.approvalId })).json();
    const again = await call(gw, 'POST', '/api/v1/execute', session, { ...order, approvalId: approval.approvalId });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).executionId).toBe(first.executionId);
  });

  it.each([
    ['amount', { assetIn: { token: 'BTC', amount: '0.2' } }],
    ['price', { metadata: { side: 'buy', type: 'limit', price: '1000' } }],
    ['side', { metadata: { side: 'sell', type: 'market' } }],
    ['protocol', { protocol: 'paper-equities', assetIn: { token: 'AAPL', amount: '1' } }],
    ['referenceId', { referenceId: 'int-changed-other' }],
  ])('a changed %s never matches the approval (POLICY_DENIED, nothing executed)', async (_field, change) => {
    const order = perpOrder(`int-changed-${_field}`);
    const approval = await approved(order);
    const changed = { ...order, ...change };
    await call(gw, 'POST', '/api/v1/execute/preview', session, changed);
    const res = await call(gw, 'POST', '/api/v1/execute', session, { ...changed, approvalId: approval.approvalId });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'POLICY_DENIED', details: { gate: 'authority', check: 'approval' } });
    expect(body.message).not.toMatch(/authority|approval_|agent_session/);
    expect((await call(gw, 'GET', `/api/v1/execute/references/${changed.referenceId}`, session)).status).toBe(404);
  });

  it('refuses a rejected, a consumed and an expired approval', async () => {
    const rejected = perpOrder('int-rejected');
    const r = await approved(rejected, 'reject');
    const res = await call(gw, 'POST', '/api/v1/execute', session, { ...rejected, approvalId: r.approvalId });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toMatch(/rejected/);

    const order = perpOrder('int-expire');
    const a = await approved(order);
    gw.clock.advance(5 * 60_000 + 1);
    await gw.app.services.ingest.pollAll();
    await call(gw, 'POST', '/api/v1/execute/preview', session, order);
    const expired = await call(gw, 'POST', '/api/v1/execute', session, { ...order, approvalId: a.approvalId });
    expect(expired.status).toBe(403);
    expect((await expired.json()).message).toMatch(/expired/);
    expect((await (await call(gw, 'GET', `/api/v1/execute/approvals/${a.approvalId}`, session)).json()).state).toBe('expired');
    session = await walletSession(gw);
  });

  it('decides only with a fresh signature of the account wallet naming this approval and hash', async () => {
    const order = perpOrder('int-reauth');
    await call(gw, 'POST', '/api/v1/execute/preview', session, order);
    const approval = await (await call(gw, 'POST', '/api/v1/execute/approvals', session, order)).json();
    const path = `/api/service/ai/approvals/${approval.approvalId}`;
    const req = approval.approveRequest;

    const stale = await signedMessage(gw, { statement: req.statement, resources: req.resources, issuedAt: new Date(gw.clock.now() - 3 * 60_000) });
    expect(await (await call(gw, 'PATCH', path, session, { decision: 'approve', ...stale })).json()).toMatchObject({
      code: 'POLICY_DENIED',
      details: { check: 'wallet_reauthentication' },
    });

    const wrongHash = await signedMessage(gw, { statement: req.statement, resources: [req.resources[0], 'urn:gateway:instruction:00'] });
    expect((await call(gw, 'PATCH', path, session, { decision: 'approve', ...wrongHash })).status).toBe(403);

    const otherWallet = await signedMessage(gw, { wallet: OTHER_WALLET, statement: req.statement, resources: req.resources });
    expect((await call(gw, 'PATCH', path, session, { decision: 'approve', ...otherWallet })).status).toBe(403);

    const rejectStatement = await signedMessage(gw, { statement: approval.rejectRequest.statement, resources: req.resources });
    expect((await call(gw, 'PATCH', path, session, { decision: 'approve', ...rejectStatement })).status).toBe(403);

    const good = await signedMessage(gw, { statement: req.statement, resources: req.resources });
    expect((await call(gw, 'PATCH', path, session, { decision: 'approve', ...good })).status).toBe(200);
    // The same signed message again: its nonce is spent, and the approval is no longer pending.
    const replayed = await call(gw, 'PATCH', path, session, { decision: 'approve', ...good });
    expect(replayed.status).toBe(409);
  });

  it("needs a fresh preview to create an approval; the approval then carries the preview's bound for its lifetime", async () => {
    const order = perpOrder('int-nopreview');
    const res = await call(gw, 'POST', '/api/v1/execute/approvals', session, order);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'QUOTE_STALE', message: expect.stringMatching(/No preview/) });
    const a = await approved(order);
    // The wallet took a minute to sign: the preview's quote expired, the approval still holds within its bound.
    gw.clock.advance(61_000);
    await gw.app.services.ingest.pollAll();
    const late = await call(gw, 'POST', '/api/v1/execute', session, { ...order, approvalId: a.approvalId });
    expect([late.status, (await late.json()).state]).toEqual([200, 'filled']);
  });

  it('writes every step to a verifiable hash chain the account can read', async () => {
    const log = await (await call(gw, 'GET', '/api/v1/audit?limit=1000', session)).json();
    expect(log.chainValid).toBe(true);
    const types = new Set(log.entries.map((e: any) => e.type));
    for (const t of ['preview', 'approval_created', 'approval_decided', 'execution', 'execution_refused']) expect(types).toContain(t);
    for (let i = 1; i < log.entries.length; i++) expect(log.entries[i].prevHash).toBe(log.entries[i - 1].hash);
  });
});

describe('approvalUpdated and executionUpdated over graphql-ws', () => {
  it("follow the caller's approval and execution through their states, and nobody else's", async () => {
    const { createClient } = await import('graphql-ws');
    const { default: WebSocket } = await import('ws');
    const client = createClient({
      url: gw.baseUrl.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${session}` },
    });
    const collect = (query: string, count: number) =>
      new Promise<any[]>((resolve, reject) => {
        const seen: any[] = [];
        const timer = setTimeout(() => reject(new Error(`only ${seen.length} events`)), 5_000);
        const stop = client.subscribe(
          { query },
          {
            next: (v) => {
              if (v.errors) return reject(new Error(JSON.stringify(v.errors)));
              seen.push(v.data);
              if (seen.length === count) {
                clearTimeout(timer);
                stop();
                resolve(seen);
              }
            },
            error: reject,
            complete: () => undefined,
          },
        );
      });
    try {
      const approvals = collect('subscription { approvalUpdated { approvalId state sequence producedAt missedEvents } }', 2);
      const executions = collect('subscription { executionUpdated { executionId referenceId state sequence producedAt } }', 2);
      await new Promise((r) => setTimeout(r, 100));
      const order = perpOrder('int-subscribed');
      await approved(order);
      await call(gw, 'POST', '/api/v1/execute', session, { ...order, approvalId: (await approvals)[0].approvalUpdated.approvalId });
      expect((await approvals).map((e) => e.approvalUpdated.state)).toEqual(['pending', 'approved']);
      expect((await executions).map((e) => [e.executionUpdated.referenceId, e.executionUpdated.state])).toEqual([
        ['int-subscribed', 'submitted'],
        ['int-subscribed', 'filled'],
      ]);
      // Per-record sequence numbers (accepted is not published) and when each change was produced.
      expect((await approvals).map((e) => [e.approvalUpdated.sequence, e.approvalUpdated.missedEvents])).toEqual([
        [1, null],
        [2, null],
      ]);
      const [submitted, filled] = (await executions).map((e) => e.executionUpdated);
      expect([submitted.sequence, filled.sequence]).toEqual([2, 3]);
      expect(Date.parse(filled.producedAt)).toBeGreaterThanOrEqual(Date.parse(submitted.producedAt));
      // Reconnecting with the last sequence seen: the current state first, saying whether changes were missed.
      const since = (last: number) =>
        collect(`subscription { executionUpdated(executionId: "${filled.executionId}", lastSequence: ${last}) { state sequence missedEvents } }`, 1);
      expect((await since(3))[0].executionUpdated).toEqual({ state: 'filled', sequence: 3, missedEvents: false });
      expect((await since(2))[0].executionUpdated).toEqual({ state: 'filled', sequence: 3, missedEvents: true });
      const approvalId = (await approvals)[0].approvalUpdated.approvalId;
      const approvalSince = (last: number) =>
        collect(`subscription { approvalUpdated(approvalId: "${approvalId}", lastSequence: ${last}) { state sequence missedEvents } }`, 1);
      // Consumed by the execution since its last event: a change without an event, so a reconnecting client refetches.
      expect((await approvalSince(2))[0].approvalUpdated).toEqual({ state: 'consumed', sequence: 3, missedEvents: true });
      expect((await approvalSince(3))[0].approvalUpdated).toEqual({ state: 'consumed', sequence: 3, missedEvents: false });
      await expect(collect('subscription { executionUpdated(lastSequence: 1) { state } }', 1)).rejects.toThrow(/lastSequence' needs 'executionId'/);
    } finally {
      await client.dispose();
    }
  });

  it('refuses an anonymous subscription', async () => {
    const body = await (await call(gw, 'POST', '/graphql', undefined, { query: 'subscription { executionUpdated { state } }' })).text();
    expect(body).toMatch(/unauthenticated/);
  });
});
