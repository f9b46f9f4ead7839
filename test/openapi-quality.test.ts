import { writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dereference } from '../src/contract/contract-openapi.js';
import { ROUTES } from '../src/contract/route-registry.js';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { ScriptedRoutedVenue } from './support/scripted-routed-venue.js';
import type { ExecutionVenue } from '../src/execution/venues/execution-venue.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { counts, redoclyProblems, spectralProblems } from './support/openapi-lint.js';
import { SIWE_DOMAIN, signedMessage, TEST_WALLET } from './support/wallet.js';

/**
 * The contract a generator can trust: both documents lint clean under Redocly's recommended
 * ruleset and Spectral's spectral:oas, and every operation's live answers (recorded as the
 * documents' examples with UPDATE_CONTRACT=1) validate against the operation's schemas.
 */
const EXAMPLES_FILE = new URL('../src/contract/openapi-examples.json', import.meta.url);

let gw: TestGateway;
let keys: BootstrapKeys;
let publicDoc: any;
let fullDoc: any;
let canonicalPublicDoc: any;

interface Recorded {
  request?: unknown;
  responses: Record<string, unknown>;
}
const recorded: Record<string, Recorded> = {};

/** Arrays cut to two items and the documents to their head: examples stay small and still valid. */
function trim(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map((v) => trim(v, depth + 1));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (depth === 0 && typeof o.openapi === 'string') return { openapi: o.openapi, info: o.info };
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, trim(v, depth + 1)]));
  }
  return value;
}

/** Calls an operation and records its answer under its operationId. */
async function op(operationId: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const route = ROUTES.find((r) => r.operationId === operationId)!;
  const res = await call(gw, route.method, path, token, body);
  const json = await res.json();
  const entry = (recorded[operationId] ??= { responses: {} });
  if (body !== undefined && res.status === 200) entry.request = body;
  entry.responses[res.status] ??= trim(json);
  return { status: res.status, body: json };
}

async function scenario(): Promise<void> {
  const k = keys.full;
  await op('listPublicMarkets', '/api/v1/public/markets');
  await op('getPublicMarket', '/api/v1/public/markets/BTC');
  await op('getPublicMarket', '/api/v1/public/markets/NOPE');
  await op('getPublicMarketHistory', '/api/v1/public/markets/BTC/history?resolution=1h&limit=3');
  await op('getPublicMarketHistory', '/api/v1/public/markets/BTC/history?limit=0');
  await op('getPublicOrderBook', '/api/v1/public/markets/BTC/orderbook');
  await op('getPublicOrderBook', '/api/v1/public/markets/USDC/orderbook');
  await op('getPublicProtocol', '/api/v1/public/protocols/paper-perps');
  await op('getPublicProtocol', '/api/v1/public/protocols/nope');
  await op('getPublicStatus', '/api/v1/public/status');
  await op('getPublicMarketsMirror', '/api/v1/public/data/markets.json');
  await op('getPublicProtocolsMirror', '/api/v1/public/data/protocols.json');
  await op('getPublicOpenApi', '/api/v1/public/openapi.public.json');
  await op('getPerpPrice', '/api/v1/data/perps/price/BTC', k);
  await op('getPerpPrice', '/api/v1/data/perps/price/NOPE', k);
  await op('getPerpFunding', '/api/v1/data/perps/funding/BTC', k);
  await op('getPerpFundingHistory', '/api/v1/data/perps/funding/history/BTC?limit=3', k);
  await op('getPerpFundingHistory', '/api/v1/data/perps/funding/history/BTC?limit=0', k);
  await op('getOrderBook', '/api/v1/data/orderbook/ETH', k);
  await op('getLendingYield', '/api/v1/data/lending/yield/USDC', k);
  await op('getPortfolio', '/api/v1/data/portfolio', k);
  await op('getPortfolio', '/api/v1/data/portfolio');
  await op('getPortfolio', '/api/v1/data/portfolio', keys.previewOnly);
  await op('getProtocolIntelligence', '/api/v1/data/protocols/paper-perps/intelligence', k);
  await op('getContractOpenApi', '/api/v1/openapi.json', k);
  await op('getCapabilities', '/api/v1/capabilities', k);
  await op('getWorkflowNodes', '/api/v1/workflow-nodes', k);

  const nonce = await op('createSiweNonce', '/api/v1/auth/siwe/nonce');
  expect(nonce.status).toBe(200);
  const signIn = await signedMessage(gw);
  const grant = await op('verifySiwe', '/api/v1/auth/siwe/verify', undefined, { message: signIn.message, signature: signIn.signature });
  await op('verifySiwe', '/api/v1/auth/siwe/verify', undefined, { message: signIn.message, signature: signIn.signature });
  const wallet: string = grant.body.sessionToken;

  const sessionBody = (assets: string[]) => ({
    apiKeyId: 'k-full',
    protocols: ['paper-perps'],
    actions: ['place_order'],
    assets,
    maxOrderNotional: '10000',
    maxPeriodNotional: '15000',
    periodSeconds: 3600,
    expiresAt: new Date(gw.clock.now() + 3_600_000).toISOString(),
  });
  await op('activateAgentSession', '/api/v1/agent-sessions', wallet, sessionBody(['BTC']));
  await op('activateAgentSession', '/api/v1/agent-sessions', k, sessionBody(['BTC']));
  const spare = await op('activateAgentSession', '/api/v1/agent-sessions', wallet, sessionBody(['ETH']));
  await op('listAgentSessions', '/api/v1/agent-sessions', k);
  await op('revokeAgentSession', `/api/v1/agent-sessions/${spare.body.id}`, wallet);
  await op('revokeAgentSession', '/api/v1/agent-sessions/ags_nope', wallet);

  const order = perpOrder('example-0001', { assetIn: { token: 'BTC', amount: '0.01' } });
  await op('previewExecution', '/api/v1/execute/preview', wallet, order);
  await op('previewExecution', '/api/v1/execute/preview', wallet, { ...order, assetIn: { token: 'BTC', amount: '0.02' } });
  const approval = await op('createApproval', '/api/v1/execute/approvals', wallet, order);
  await op('getApproval', `/api/v1/execute/approvals/${approval.body.approvalId}`, wallet);
  await op('getApproval', '/api/v1/execute/approvals/apr_nope', wallet);
  const req = approval.body.approveRequest;
  const signed = await signedMessage(gw, { statement: req.statement, resources: req.resources });
  await op('decideApproval', `/api/service/ai/approvals/${approval.body.approvalId}`, wallet, {
    decision: 'approve',
    message: signed.message,
    signature: signed.signature,
  });
  await op('decideApproval', `/api/service/ai/approvals/${approval.body.approvalId}`, wallet, {
    decision: 'approve',
    message: signed.message,
    signature: signed.signature,
  });
  const execution = await op('execute', '/api/v1/execute', wallet, { ...order, approvalId: approval.body.approvalId });
  await op('execute', '/api/v1/execute', k, perpOrder('example-0002', { assetIn: { token: 'ETH', amount: '1' } }));
  await op('execute', '/api/v1/execute', k, perpOrder('example-0003'));
  await op('getExecution', `/api/v1/execute/executions/${execution.body.executionId}`, wallet);
  await op('getExecution', '/api/v1/execute/executions/exe_nope', wallet);
  await op('getExecutionByReference', '/api/v1/execute/references/example-0001', k);
  // An order that rests at its venue (paper-equities routed, its venue side scripted), then cancelled.
  await call(gw, 'POST', '/api/v1/agent-sessions', wallet, { ...sessionBody(['AAPL']), protocols: ['paper-equities'] });
  const equityLimit = {
    protocol: 'paper-equities',
    action: 'place_order',
    assetIn: { token: 'AAPL', amount: '2' },
    metadata: { side: 'buy', type: 'limit', price: '200', timeInForce: 'gtc' },
    referenceId: 'example-0004',
  };
  await call(gw, 'POST', '/api/v1/execute/preview', k, equityLimit);
  const resting = await op('execute', '/api/v1/execute', k, equityLimit);
  expect(resting.body.state).toBe('open');
  await op('cancelExecution', `/api/v1/execute/executions/${resting.body.executionId}`, k);
  await op('cancelExecution', `/api/v1/execute/executions/${resting.body.executionId}`, k);
  await op('cancelExecution', '/api/v1/execute/executions/exe_nope', k);
  await op('getAuditLog', '/api/v1/audit?limit=3', k);
  await op('getPositions', '/api/v1/data/positions', k);
  const listed = await op('listExecutions', '/api/v1/execute/executions?limit=1', k);
  await op('listExecutions', `/api/v1/execute/executions?limit=1&cursor=${listed.body.data.nextCursor}`, k);
  await op('listExecutions', '/api/v1/execute/executions?cursor=forged.cursor', k);
  await op('listApprovals', '/api/v1/execute/approvals?state=consumed', k);
  await op('listApprovals', '/api/v1/execute/approvals?state=done', k);
  await op('revokeApiKey', '/api/v1/keys/k-preview', wallet);
  await op('revokeApiKey', '/api/v1/keys/k-nope', wallet);
  await op('signOut', '/api/v1/auth/session', wallet);
}

beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME, {
    faults: {
      venues: (venues: Map<string, ExecutionVenue>) => new Map([...venues, ['paper-equities', new ScriptedRoutedVenue(venues.get('paper-equities')!)]]),
    },
  });
  publicDoc = await (await gw.get('/openapi.public.json')).json();
  canonicalPublicDoc = await (await gw.get('/api/v1/public/openapi.public.json')).json();
  fullDoc = await (await call(gw, 'GET', '/api/v1/openapi.json', keys.readOnly)).json();
  await scenario();
  if (process.env.UPDATE_CONTRACT === '1') {
    const sorted = Object.fromEntries(Object.entries(recorded).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(EXAMPLES_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}, 60_000);
afterAll(() => gw.close());

function operationById(operationId: string): any {
  for (const item of Object.values<any>(fullDoc.paths)) for (const o of Object.values<any>(item)) if (o.operationId === operationId) return o;
  throw new Error(`no operation ${operationId}`);
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
function validate(schema: unknown, value: unknown): string[] {
  const check = ajv.compile(dereference(fullDoc, schema));
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

describe('the contract documents', () => {
  it('lint clean: Redocly recommended and Spectral spectral:oas, 0 errors and 0 warnings on both', async () => {
    for (const doc of [publicDoc, fullDoc]) {
      const problems = [...(await redoclyProblems(doc)), ...(await spectralProblems(doc))];
      expect(problems, JSON.stringify(problems.slice(0, 5), null, 1)).toEqual([]);
      expect(counts(problems)).toEqual({ errors: 0, warnings: 0 });
    }
  });

  it('GET /openapi.public.json is the public document', () => {
    expect(publicDoc).toEqual(canonicalPublicDoc);
    expect(Object.keys(publicDoc.paths).every((p) => p.startsWith('/api/v1/public/'))).toBe(true);
  });

  it('has named request bodies, enums for closed sets, descriptions everywhere and public-auth SIWE routes', () => {
    const s = fullDoc.components.schemas;
    expect(s.ExecutionRequest.properties.protocol.enum).toEqual(['paper-perps', 'paper-equities', 'paper-swap', 'paper-lending']);
    expect(s.ExecutionRequest.properties.metadata.properties.side.enum).toEqual(['buy', 'sell']);
    expect(s.ExecutionRequest.properties.metadata.properties.type.enum).toEqual(['market', 'limit']);
    expect(s.ApprovalDecision.properties.decision.enum).toEqual(['approve', 'reject']);
    expect(s.AgentSessionRequest.required).toContain('apiKeyId');
    expect(s.Execution.properties.state.enum).toContain('partially_filled');
    expect(s.Execution.required).toContain('approvalId');
    expect(s.Execution.properties.approvalId.type).toEqual(['string', 'null']);
    const execute = operationById('execute');
    expect(execute.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ExecuteRequest' });
    expect(execute.responses['403'].content['application/json'].schema.allOf[1].properties.code.enum).toContain('INSUFFICIENT_BALANCE');
    expect(execute.responses['503'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'POLICY_UNAVAILABLE',
      'VENUE_UNHEALTHY',
      'shared_state_unavailable',
    ]);
    expect(execute.responses['200'].headers['Idempotent-Replayed']).toBeDefined();
    for (const id of ['createSiweNonce', 'verifySiwe']) expect(operationById(id)).toMatchObject({ security: [], tags: ['public-auth'] });
    for (const item of Object.values<any>(fullDoc.paths))
      for (const o of Object.values<any>(item)) {
        expect(o.description, o.operationId).toEqual(expect.any(String));
        expect(Object.keys(o.responses), o.operationId).toEqual(expect.arrayContaining(['200', '400', '401', '429', '503']));
      }
  });

  it('every operation answered live as its schemas say, and each has recorded examples', () => {
    const problems: string[] = [];
    for (const [operationId, entry] of Object.entries(recorded)) {
      const o = operationById(operationId);
      if (entry.request !== undefined)
        problems.push(...validate(o.requestBody.content['application/json'].schema, entry.request).map((e) => `${operationId} request: ${e}`));
      for (const [status, body] of Object.entries(entry.responses)) {
        const response = o.responses[status];
        if (!response) {
          problems.push(`${operationId}: status ${status} is not declared`);
          continue;
        }
        problems.push(...validate(response.content['application/json'].schema, body).map((e) => `${operationId} ${status}: ${e}`));
      }
    }
    expect(problems).toEqual([]);
    for (const item of Object.values<any>(fullDoc.paths))
      for (const o of Object.values<any>(item)) {
        expect(Object.keys(recorded), 'the scenario calls every operation').toContain(o.operationId);
        expect(o.responses['200'].content['application/json'].example, `${o.operationId} has a 200 example`).toBeDefined();
        if (o.requestBody) expect(o.requestBody.content['application/json'].example, `${o.operationId} has a request example`).toBeDefined();
      }
  });
});
