import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';

let gw: TestGateway;
let keys: BootstrapKeys;
beforeAll(async () => {
  keys = writeBootstrap();
  gw = await startGateway({ bootstrapPath: keys.path });
});
afterAll(() => gw.close());

const capabilities = async (key: string) => (await (await gw.get('/api/v1/capabilities', { headers: bearer(key) })).json()).data;
const action = (caps: any, protocol: string, id: string) => caps.protocols.find((p: any) => p.id === protocol).actions.find((a: any) => a.action === id);
const gates = (a: any) => a.blockedBy.map((b: any) => b.gate);
const checks = (a: any) => a.blockedBy.map((b: any) => b.check);

describe('GET /api/v1/capabilities', () => {
  it('lists every non-hidden protocol and action with certification, scopes and approval modes', async () => {
    const caps = await capabilities(keys.full);
    expect(caps).toMatchObject({ keyId: 'k-full', accountId: 'acct-1', executionEnabled: true, killSwitchEngaged: false });
    expect(caps.protocols.map((p: any) => p.id)).toEqual(['paper-perps', 'paper-equities', 'paper-swap', 'paper-lending']);
    const place = action(caps, 'paper-perps', 'place_order');
    expect(place).toMatchObject({
      certification: 'certified',
      requiredScopes: { preview: ['execute:preview'], live: ['execute:live'] },
      agentSessionRequired: true,
      approvalModes: ['agent_session'],
      allowed: { preview: true, live: false },
    });
    expect(place.blockedBy).toEqual([expect.objectContaining({ gate: 'authority', check: 'agent_session', code: 'POLICY_DENIED' })]);
    expect(action(caps, 'paper-perps', 'set_leverage').blockedBy[0]).toMatchObject({ gate: 'certification', code: 'ACTION_CANARY_ONLY' });
    expect(action(caps, 'paper-lending', 'flash_loan').blockedBy[0]).toMatchObject({ gate: 'certification', code: 'ACTION_NOT_CERTIFIED' });
    expect(JSON.stringify(caps)).not.toContain('paper-otc');
    expect(JSON.stringify(caps)).not.toContain('limit_swap');
  });

  it('reflects the key: a read-only key may not preview and lacks execute:live', async () => {
    const place = action(await capabilities(keys.readOnly), 'paper-perps', 'place_order');
    expect(place.allowed).toEqual({ preview: false, live: false });
    expect(checks(place)).toContain('scope');
  });

  it('changes when a venue is made unhealthy, and back', async () => {
    await gw.setFault('paper-swap', 'down');
    const swap = action(await capabilities(keys.full), 'paper-swap', 'swap');
    expect(swap.blockedBy[0]).toMatchObject({ gate: 'venue', check: 'venue_health', code: 'VENUE_UNHEALTHY' });
    await gw.setFault('paper-swap', 'none');
    expect(gates(action(await capabilities(keys.full), 'paper-swap', 'swap'))).not.toContain('venue');
  });

  it("changes when an action's certification changes", async () => {
    gw.app.services.protocols.setCertification('paper-perps', 'place_order', 'canary', new Date().toISOString());
    expect(action(await capabilities(keys.full), 'paper-perps', 'place_order')).toMatchObject({
      certification: 'canary',
      blockedBy: [
        { gate: 'certification', code: 'ACTION_CANARY_ONLY' },
        { gate: 'authority', check: 'agent_session' },
      ],
    });
    gw.app.services.protocols.setCertification('paper-perps', 'place_order', 'certified', new Date().toISOString());
    expect(action(await capabilities(keys.full), 'paper-perps', 'place_order').certification).toBe('certified');
  });

  it('shows the feature flag, kill switch and circuit breaker while they are engaged', async () => {
    const { controls } = gw.app.services;
    controls.setExecutionEnabled(false);
    controls.engageKillSwitch('incident 42');
    controls.tripBreaker('paper-perps', 'error rate above threshold');
    const caps = await capabilities(keys.full);
    expect(caps).toMatchObject({ executionEnabled: false, killSwitchEngaged: true });
    // One block per gate, in gate order: the first is what a submission would meet first.
    expect(gates(action(caps, 'paper-perps', 'place_order'))).toEqual(['feature_flag', 'venue', 'authority']);
    expect(checks(action(caps, 'paper-perps', 'place_order'))).toEqual(['execution_enabled', 'kill_switch', 'agent_session']);
    controls.setExecutionEnabled(true);
    controls.releaseKillSwitch();
    expect(checks(action(await capabilities(keys.full), 'paper-perps', 'place_order'))).toEqual(['circuit_breaker', 'agent_session']);
    controls.resetBreaker('paper-perps');
    expect(checks(action(await capabilities(keys.full), 'paper-perps', 'place_order'))).toEqual(['agent_session']);
  });
});

describe('GET /api/v1/workflow-nodes', () => {
  it('gives triggers and data reads with input and output JSON Schemas that validate real responses', async () => {
    const nodes = (await (await gw.get('/api/v1/workflow-nodes', { headers: bearer(keys.readOnly) })).json()).data.nodes;
    expect(nodes.filter((n: any) => n.kind === 'trigger').map((n: any) => n.id)).toEqual([
      'trigger.price_threshold',
      'trigger.funding_threshold',
      'trigger.freshness_change',
    ]);
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const node of nodes) {
      ajv.compile(node.inputSchema);
      ajv.compile(node.outputSchema);
    }
    const reads = nodes.filter(
      (n: any) =>
        n.kind === 'data' && !n.route.path.includes('{approvalId}') && !n.route.path.includes('{executionId}') && !n.route.path.includes('{referenceId}'),
    );
    expect(reads.length).toBeGreaterThanOrEqual(14);
    expect(nodes.filter((n: any) => ['preview', 'approval', 'execute'].includes(n.kind)).map((n: any) => n.id)).toEqual([
      'preview.previewExecution',
      'approval.createApproval',
      'approval.decideApproval',
      'execute.execute',
      'execute.cancelExecution',
    ]);
    const preview = nodes.find((n: any) => n.id === 'preview.previewExecution');
    expect(preview.inputSchema.required).toEqual(expect.arrayContaining(['protocol', 'action', 'assetIn', 'referenceId']));
    expect(preview.available).toBe(false); // a read-only key
    expect(nodes.find((n: any) => n.id === 'approval.createApproval').blockedBy).toContainEqual(expect.objectContaining({ gate: 'wallet_session' }));
    for (const node of reads) {
      const path = node.route.path.replace('{asset}', node.route.path.includes('lending') ? 'USDC' : 'BTC').replace('{protocol}', 'paper-perps');
      const res = await gw.get(path, { headers: bearer(keys.readOnly) });
      const body = await res.json();
      const validate = ajv.compile(node.outputSchema);
      expect(validate(body), `${node.id}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(node.available).toBe(true);
    }
    const history = reads.find((n: any) => n.id === 'data.getPublicMarketHistory');
    expect(history.inputSchema.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 366 });
    expect(ajv.compile(history.inputSchema)({ asset: 'BTC', limit: 500 })).toBe(false);
  });

  it('marks a read unavailable for a key without its scope', async () => {
    const nodes = (await (await gw.get('/api/v1/workflow-nodes', { headers: bearer(keys.previewOnly) })).json()).data.nodes;
    const price = nodes.find((n: any) => n.id === 'data.getPerpPrice');
    expect(price).toMatchObject({ available: false, requiredScopes: ['data:read'], blockedBy: [{ gate: 'scope' }] });
  });
});

describe('GET /api/v1/openapi.json (full contract)', () => {
  it('declares every route, the bearer scheme and required scopes; the public document stays public-only', async () => {
    const full = await (await gw.get('/api/v1/openapi.json', { headers: bearer(keys.previewOnly) })).json();
    expect(full.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', description: expect.any(String) });
    expect(full.paths['/api/v1/data/perps/price/{asset}'].get).toMatchObject({ security: [{ bearerAuth: [] }], 'x-required-scopes': ['data:read'] });
    expect(Object.keys(full.paths)).toContain('/api/v1/capabilities');
    const validator = new Validator();
    expect((await validator.validate(full)).errors).toBeUndefined();
    const pub = await (await gw.get('/api/v1/public/openapi.public.json')).json();
    expect(Object.keys(pub.paths).every((p) => p.startsWith('/api/v1/public/'))).toBe(true);
    expect(JSON.stringify(pub)).not.toContain('bearerAuth');
  });
});
