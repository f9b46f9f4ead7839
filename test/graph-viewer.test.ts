import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey, sha256Hex } from '../src/auth/api-key-secret.js';
import type { GatewayConfig } from '../src/config/gateway-config.js';
import { ROUTES } from '../src/contract/route-registry.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { deleteKeys, redisForSuites, TEST_REDIS_URL, uniquePrefix } from './support/redis.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * The viewer graph through real HTTP POST /graphql: the caller's account with its portfolio,
 * positions and Relay connections of executions, approvals, agent sessions and audit entries,
 * filled through the REST flows, on the memory, SQLite and Redis stores.
 */
const redis = await redisForSuites();

interface Keys {
  path: string;
  full: string;
  readOnly: string;
  previewOnly: string;
  /** A key of a second account that has no records. */
  empty: string;
}

/** acct-1 (the test wallet's, with the usual keys) and acct-2, an account with no records. */
function bootstrap(): Keys {
  const keys = { full: newApiKey(), readOnly: newApiKey(), previewOnly: newApiKey(), empty: newApiKey() };
  const path = join(mkdtempSync(join(tmpdir(), 'gw-viewer-')), 'bootstrap.json');
  writeFileSync(
    path,
    JSON.stringify({
      accounts: [
        { id: 'acct-1', wallet: TEST_WALLET.address, balances: { USDC: '100000', WETH: '2' } },
        { id: 'acct-2', wallet: '0x2222222222222222222222222222222222222222', balances: { USDC: '10' } },
      ],
      apiKeys: [
        { id: 'k-full', accountId: 'acct-1', sha256: sha256Hex(keys.full), scopes: ['data:read', 'execute:preview', 'execute:live'] },
        { id: 'k-read', accountId: 'acct-1', sha256: sha256Hex(keys.readOnly), scopes: ['data:read'] },
        { id: 'k-preview', accountId: 'acct-1', sha256: sha256Hex(keys.previewOnly), scopes: ['execute:preview'] },
        { id: 'k-empty', accountId: 'acct-2', sha256: sha256Hex(keys.empty), scopes: ['data:read'] },
      ],
    }),
  );
  return { path, ...keys };
}

const STORES: { name: string; run: boolean; config: () => Partial<GatewayConfig> }[] = [
  { name: 'memory', run: true, config: () => ({}) },
  { name: 'SQLite', run: true, config: () => ({ dataDir: mkdtempSync(join(tmpdir(), 'gw-viewer-db-')) }) },
  {
    name: 'Redis',
    run: redis,
    config: () => ({ mode: 'redis', redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefixes[prefixes.push(uniquePrefix('viewer')) - 1]! }),
  },
];
const prefixes: string[] = [];
afterAll(async () => {
  if (redis && prefixes.length) await deleteKeys(TEST_REDIS_URL, prefixes);
});

type GraphResult = { status: number; data?: any; errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[] };

describe.each(STORES)('viewer on the $name store', ({ name, run, config }) => {
  let gw: TestGateway;
  let keys: Keys;
  let wallet: string;
  const executionIds: Record<string, string> = {};

  async function graph(query: string, token?: string, variables?: Record<string, unknown>): Promise<GraphResult> {
    const res = await call(gw, 'POST', '/graphql', token, { query, ...(variables ? { variables } : {}) });
    return { status: res.status, ...((await res.json()) as object) };
  }

  async function execute(order: Record<string, unknown>) {
    gw.clock.advance(1000);
    await gw.app.services.ingest.pollAll();
    expect((await call(gw, 'POST', '/api/v1/execute/preview', keys.full, order)).status).toBe(200);
    const res = await call(gw, 'POST', '/api/v1/execute', keys.full, order);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    executionIds[order.referenceId as string] = body.executionId;
    return body;
  }

  async function approval(referenceId: string) {
    gw.clock.advance(1000);
    await gw.app.services.ingest.pollAll();
    expect((await call(gw, 'POST', '/api/v1/execute/preview', wallet, perpOrder(referenceId))).status).toBe(200);
    const res = await call(gw, 'POST', '/api/v1/execute/approvals', wallet, perpOrder(referenceId));
    expect(res.status).toBe(200);
    return res.json();
  }

  async function approve(created: { approvalId: string; approveRequest: { statement: string; resources: string[] } }) {
    const signed = await signedMessage(gw, { statement: created.approveRequest.statement, resources: created.approveRequest.resources });
    expect((await call(gw, 'PATCH', `/api/service/ai/approvals/${created.approvalId}`, wallet, { decision: 'approve', ...signed })).status).toBe(200);
  }

  /** Every edge of a connection, following endCursor page by page. */
  async function pageThrough(field: string, args: string, size: number, token = keys.readOnly) {
    const nodes: any[] = [];
    const pages: any[] = [];
    let after: string | null = null;
    do {
      const r: GraphResult = await graph(
        `query($after: String) { viewer { ${field}(first: ${size}, after: $after${args ? `, ${args}` : ''}) {
          edges { cursor node { ${field === 'auditLog' ? 'seq type referenceId at' : field === 'agentSessions' ? 'id active' : field === 'approvals' ? 'approvalId state' : 'executionId referenceId protocol state'} } }
          pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
        token,
        { after },
      );
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      const page = r.data.viewer[field];
      expect(page.edges.length).toBeLessThanOrEqual(size);
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
      pages.push(page);
      nodes.push(...page.edges.map((e: any) => e.node));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    return { nodes, pages };
  }

  beforeAll(async () => {
    if (!run) return;
    keys = bootstrap();
    gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN, ...config() }, SESSION_TIME);
    wallet = await walletSession(gw);
    const session = await call(gw, 'POST', '/api/v1/agent-sessions', wallet, {
      apiKeyId: 'k-full',
      protocols: ['paper-perps', 'paper-lending'],
      actions: ['place_order', 'supply'],
      assets: ['BTC', 'USDC'],
      maxOrderNotional: '50000',
      maxPeriodNotional: '500000',
      periodSeconds: 86_400,
      expiresAt: new Date(gw.clock.now() + 7 * 86_400_000).toISOString(),
    });
    expect(session.status).toBe(200);
    for (let i = 0; i < 5; i++) await execute(perpOrder(`v-perp-${i}`, { assetIn: { token: 'BTC', amount: '0.01' } }));
    await execute({ protocol: 'paper-lending', action: 'supply', assetIn: { token: 'USDC', amount: '1000' }, referenceId: 'v-supply-0' });
    await approval('v-apr-0');
    const approved = await approval('v-apr-1');
    await approve(approved);
    // The approved instruction is executed by the wallet: an execution with an approval.
    const res = await call(gw, 'POST', '/api/v1/execute', wallet, { ...perpOrder('v-apr-1'), approvalId: approved.approvalId });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    executionIds['v-apr-1'] = body.executionId;
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  it.skipIf(!run)('names the caller and reuses the account reads', async () => {
    const r = await graph(
      `{ viewer { accountId wallet credential scopes portfolio { data { accountId totalValueUsd } } positions { data { perps { marketId size } } } } }`,
      keys.readOnly,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.viewer).toMatchObject({ accountId: 'acct-1', wallet: TEST_WALLET.address, credential: 'api_key', scopes: ['data:read'] });
    const rest = await (await call(gw, 'GET', '/api/v1/data/portfolio', keys.readOnly)).json();
    expect(r.data.viewer.portfolio.data).toEqual({ accountId: 'acct-1', totalValueUsd: rest.data.totalValueUsd });
    expect(r.data.viewer.positions.data.perps).toEqual([{ marketId: 'BTC-PERP', size: '0.15' }]);
    const bySession = await graph('{ viewer { accountId credential } }', wallet);
    expect(bySession.data.viewer).toEqual({ accountId: 'acct-1', credential: 'wallet_session' });
  });

  it.skipIf(!run)('pages executions newest first with cursors, as the REST list does', async () => {
    const { nodes, pages } = await pageThrough('executions', '', 2);
    const refs = nodes.map((n) => n.referenceId);
    expect(refs).toEqual(['v-apr-1', 'v-supply-0', 'v-perp-4', 'v-perp-3', 'v-perp-2', 'v-perp-1', 'v-perp-0']);
    expect(pages).toHaveLength(4);
    expect(pages.map((p) => p.pageInfo.hasNextPage)).toEqual([true, true, true, false]);
    const rest = await (await call(gw, 'GET', '/api/v1/execute/executions?limit=100', keys.readOnly)).json();
    expect(nodes.map((n) => n.executionId)).toEqual(rest.data.executions.map((e: any) => e.executionId));
    // Any edge's cursor continues after that edge.
    const third = pages[1].edges[0].cursor;
    const rest4 = await graph(`{ viewer { executions(first: 2, after: "${third}") { edges { node { referenceId } } } } }`, keys.readOnly);
    expect(rest4.data.viewer.executions.edges.map((e: any) => e.node.referenceId)).toEqual(['v-perp-3', 'v-perp-2']);
  });

  it.skipIf(!run)('filters executions by state, protocol and time range', async () => {
    const lending = await pageThrough('executions', 'protocol: "paper-lending"', 5);
    expect(lending.nodes.map((n) => n.referenceId)).toEqual(['v-supply-0']);
    const filled = await pageThrough('executions', 'state: filled, protocol: "paper-perps"', 4);
    expect(filled.nodes.map((n) => n.referenceId)).toEqual(['v-apr-1', 'v-perp-4', 'v-perp-3', 'v-perp-2', 'v-perp-1', 'v-perp-0']);
    expect((await pageThrough('executions', 'state: rejected', 5)).nodes).toEqual([]);
    const byReference = await pageThrough('executions', 'referenceId: "v-perp-"', 3);
    expect(byReference.nodes.map((n) => n.referenceId)).toEqual(['v-perp-4', 'v-perp-3', 'v-perp-2', 'v-perp-1', 'v-perp-0']);
    const rest = await (await call(gw, 'GET', '/api/v1/execute/executions?limit=100', keys.readOnly)).json();
    const at = (ref: string) => rest.data.executions.find((e: any) => e.referenceId === ref).createdAt;
    const window = await pageThrough('executions', `from: "${at('v-perp-1')}", to: "${at('v-perp-3')}"`, 2);
    expect(window.nodes.map((n) => n.referenceId)).toEqual(['v-perp-3', 'v-perp-2', 'v-perp-1']);
  });

  it.skipIf(!run)('lists approvals in their state now, agent sessions and the audit log as connections', async () => {
    const approvals = await pageThrough('approvals', '', 1);
    expect(approvals.nodes.map((n) => n.state)).toEqual(['consumed', 'pending']);
    expect((await pageThrough('approvals', 'state: pending', 5)).nodes).toHaveLength(1);
    expect((await pageThrough('approvals', 'protocol: "paper-lending"', 5)).nodes).toEqual([]);

    const sessions = await pageThrough('agentSessions', '', 5);
    expect(sessions.nodes.map((n) => n.active)).toEqual([true]);
    expect((await pageThrough('agentSessions', 'active: false', 5)).nodes).toEqual([]);
    expect((await pageThrough('agentSessions', 'protocol: "paper-lending"', 5)).nodes).toHaveLength(1);

    const audit = await pageThrough('auditLog', '', 4);
    const seqs = audit.nodes.map((n) => n.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.at(-1)).toBe(1);
    const rest = await (await call(gw, 'GET', '/api/v1/audit?limit=1000', keys.readOnly)).json();
    expect(seqs).toEqual(rest.entries.map((e: any) => e.seq).reverse());
    const previews = await pageThrough('auditLog', 'type: "preview", referenceId: "v-perp-2"', 3);
    expect(previews.nodes.map((n) => [n.type, n.referenceId])).toEqual([['preview', 'v-perp-2']]);
    const since = rest.entries.find((e: any) => e.referenceId === 'v-apr-0').at;
    const recent = await pageThrough('auditLog', `from: "${since}"`, 50);
    expect(recent.nodes.every((n) => n.at >= since)).toBe(true);
    expect(recent.nodes.length).toBe(rest.entries.filter((e: any) => e.at >= since).length);
  });

  it.skipIf(!run)("leads from an execution to its audit entries, through the execution's approval", async () => {
    const r = await graph(
      `{ viewer { executions(first: 3) { edges { node { referenceId approvalId auditEntries { type referenceId details } } } } } }`,
      keys.readOnly,
    );
    expect(r.errors).toBeUndefined();
    const [interactive, supply] = r.data.viewer.executions.edges.map((e: any) => e.node);
    expect(interactive.auditEntries.map((e: any) => e.type)).toEqual(['approval_created', 'approval_decided', 'execution']);
    expect(interactive.auditEntries.every((e: any) => e.referenceId === 'v-apr-1')).toBe(true);
    expect(supply.auditEntries.map((e: any) => [e.type, e.details.executionId, e.details.state])).toEqual([
      ['execution', executionIds['v-supply-0'], 'filled'],
    ]);
    // The same executions twice in one query (one batch): each gets its entries once.
    const twice = await graph(
      `{ viewer { a: executions(first: 2) { edges { node { auditEntries { seq } } } } b: executions(first: 1) { edges { node { auditEntries { seq } } } } } }`,
      keys.readOnly,
    );
    const seqs = (edges: any[]) => edges.map((e: any) => e.node.auditEntries.map((x: any) => x.seq));
    expect(seqs(twice.data.viewer.b.edges)).toEqual(seqs(twice.data.viewer.a.edges).slice(0, 1));
    expect(seqs(twice.data.viewer.a.edges)[0]).toHaveLength(3);
  });

  it.skipIf(!run || name !== 'Redis')('reads the audit entries of a whole page of executions in one walk of the chain (counted on Redis)', async () => {
    const prefix = gw.app.services.config.redisKeyPrefix;
    const monitor = createClient({ url: TEST_REDIS_URL });
    await monitor.connect();
    try {
      const seen: string[] = [];
      await monitor.monitor((line) => {
        if (line.includes(`"${prefix}audit:`) && !line.includes(' lua]')) seen.push(line);
      });
      await new Promise((r) => setTimeout(r, 100));
      const reads = async (first: number) => {
        const before = seen.length;
        const r = await graph(`{ viewer { executions(first: ${first}) { edges { node { auditEntries { seq } } } } } }`, keys.readOnly);
        expect(r.errors).toBeUndefined();
        expect(r.data.viewer.executions.edges).toHaveLength(first);
        expect(r.data.viewer.executions.edges.every((e: any) => e.node.auditEntries.length > 0)).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 200));
        return seen.slice(before);
      };
      const two = await reads(2);
      const seven = await reads(7);
      expect(two.length).toBeGreaterThan(0);
      expect(seven.length, seven.join('\n')).toBe(two.length);
    } finally {
      monitor.destroy();
    }
  });

  it.skipIf(!run)('refuses bad cursors and filters with 400 codes in the error shape', async () => {
    const first = await graph('{ viewer { executions(first: 1) { pageInfo { endCursor } } approvals(first: 1) { pageInfo { endCursor } } } }', keys.readOnly);
    const executionCursor: string = first.data.viewer.executions.pageInfo.endCursor;
    const approvalCursor: string = first.data.viewer.approvals.pageInfo.endCursor;
    const [body, mac] = executionCursor.split('.');
    const bad: [string, string, string][] = [
      [`executions(after: "${body}.${mac!.slice(0, -2)}xx")`, 'invalid_cursor', 'after'],
      [`executions(after: "garbage")`, 'invalid_cursor', 'after'],
      ['executions(to: "2026-11-18 16:00")', 'invalid_list_query', 'to'],
      [`executions(after: "${approvalCursor}")`, 'invalid_cursor', 'after'],
      [`auditLog(after: "${executionCursor}")`, 'invalid_cursor', 'after'],
      ['executions(first: 0)', 'invalid_list_query', 'first'],
      ['approvals(first: 101)', 'invalid_list_query', 'first'],
      ['executions(protocol: "nope")', 'invalid_list_query', 'protocol'],
      ['agentSessions(from: "2026-11-18T16:00:00Z", to: "2026-11-17T16:00:00Z")', 'invalid_list_query', 'to'],
    ];
    for (const [field, code, parameter] of bad) {
      const r = await graph(`{ viewer { ${field} { edges { cursor } } } }`, keys.readOnly);
      expect(r.errors?.[0]?.extensions, field).toMatchObject({ code, details: { parameter }, retryable: false });
      expect(r.errors?.[0]?.message).toMatch(new RegExp(`'${parameter}'`));
    }
    const badTime = await graph('query($from: String) { viewer { auditLog(from: $from) { edges { cursor } } } }', keys.readOnly, { from: 'yesterday' });
    expect(badTime.errors?.[0]).toMatchObject({ message: "'from' must be an RFC 3339 date-time.", extensions: { code: 'invalid_list_query' } });
    expect(badTime.status).toBe(400);
  });

  it.skipIf(!run)('answers an unauthenticated caller as the REST routes do, and guards the lists with data:read', async () => {
    const rest = await call(gw, 'GET', '/api/v1/data/portfolio', undefined);
    const restBody = await rest.json();
    const anonymous = await graph('{ viewer { accountId } }');
    expect(anonymous.data?.viewer ?? null).toBeNull();
    expect(anonymous.errors?.[0]?.extensions?.code).toBe(restBody.code);
    expect(anonymous.errors?.[0]?.message).toBe(restBody.message);
    const badKey = await graph('{ viewer { accountId } }', 'tg_live_not_a_key');
    const restBadKey = await (await call(gw, 'GET', '/api/v1/data/portfolio', 'tg_live_not_a_key')).json();
    expect(badKey.errors?.[0]?.extensions?.code).toBe(restBadKey.code);

    const noRead = await graph('{ viewer { accountId agentSessions { edges { node { id } } } executions { edges { cursor } } } }', keys.previewOnly);
    const restNoRead = await (await call(gw, 'GET', '/api/v1/execute/executions', keys.previewOnly)).json();
    expect(noRead.data.viewer.accountId).toBe('acct-1');
    expect(noRead.data.viewer.agentSessions.edges).toHaveLength(1);
    expect(noRead.data.viewer.executions).toBeNull();
    expect(noRead.errors?.[0]?.extensions?.code).toBe(restNoRead.code);
    expect(noRead.errors?.[0]?.path).toEqual(['viewer', 'executions']);
  });

  it.skipIf(!run)('shows a viewer with no records empty lists', async () => {
    const r = await graph(
      `{ viewer { accountId executions { edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
        approvals { edges { cursor } } agentSessions { edges { cursor } } auditLog { edges { cursor } pageInfo { hasNextPage } } } }`,
      keys.empty,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.viewer).toEqual({
      accountId: 'acct-2',
      executions: { edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } },
      approvals: { edges: [] },
      agentSessions: { edges: [] },
      auditLog: { edges: [], pageInfo: { hasNextPage: false } },
    });
  });

  it.skipIf(!run)('stays out of the REST contract: no route, no OpenAPI path or schema', async () => {
    const full = await (await call(gw, 'GET', '/api/v1/openapi.json', keys.readOnly)).text();
    const pub = await (await gw.get('/api/v1/public/openapi.public.json')).text();
    for (const doc of [full, pub])
      for (const word of ['viewer', 'Viewer', 'Connection', 'PageInfo', 'auditEntries', 'CredentialKind']) expect(doc).not.toContain(word);
    expect(Object.keys(JSON.parse(full).paths).sort()).toEqual([...new Set(ROUTES.filter((r) => r.visibility !== 'internal').map((r) => r.path))].sort());
    expect((await call(gw, 'GET', '/api/v1/viewer', keys.readOnly)).status).toBe(404);
    // REST responses keep their shape: an execution has no auditEntries there.
    const listed = await (await call(gw, 'GET', '/api/v1/execute/executions?limit=1', keys.readOnly)).json();
    expect(listed.data.executions[0]).not.toHaveProperty('auditEntries');
  });
});
