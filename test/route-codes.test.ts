import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteSpec } from '../src/contract/route-registry.js';
import { readLimits } from '../src/config/limits-config.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SESSION_TIME } from './support/execution.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

/**
 * Every code a route sends is in its document: each contract route is sent what careless and
 * hostile callers send (no key, the wrong key, bad percent-encoding, every query parameter
 * repeated, bracketed, empty and mistyped, broken and oversized bodies, compressed and non-JSON
 * bodies, an unknown id), and each refusal's status and code must be declared for that route in
 * the full OpenAPI document (the status among its responses, the code in that status's enum).
 */
const OPERATOR = 'operator-token-for-route-codes-0123456789';
const MAX_BODY = 4_096;
let gw: TestGateway;
let keys: BootstrapKeys;
let session: string;
let documented: Map<string, Map<number, string[] | null>>;

beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway(
    {
      bootstrapPath: keys.path,
      siweDomain: SIWE_DOMAIN,
      operatorToken: OPERATOR,
      limits: readLimits({ GATEWAY_MAX_BODY_BYTES: String(MAX_BODY) }),
      rateLimits: { publicPerMinute: 1_000_000, keyPerMinute: 1_000_000 },
    },
    SESSION_TIME,
  );
  session = await walletSession(gw);
  const doc = await (await gw.get('/api/v1/openapi.json', { headers: bearer(keys.full) })).json();
  documented = new Map();
  for (const route of ROUTES) {
    const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
    const byStatus = new Map<number, string[] | null>();
    for (const [status, response] of Object.entries(operation?.responses ?? {}) as [string, any][]) {
      const schema = response.content?.['application/json']?.schema;
      const codes = schema?.allOf?.[1]?.properties?.code?.enum ?? null;
      byStatus.set(Number(status), codes);
    }
    documented.set(route.operationId, byStatus);
  }
});
afterAll(() => gw?.close());

const filled = (route: RouteSpec, value: (name: string) => string) => route.path.replace(/\{(\w+)\}/g, (_m, name: string) => value(name));
const example = (route: RouteSpec) =>
  filled(
    route,
    (name) => ({ asset: 'BTC', protocol: 'paper-perps', approvalId: 'apr_nope', executionId: 'exe_nope', sessionId: 'ags_nope' })[name] ?? 'x-nope',
  );

interface Probe {
  what: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** What a careless or hostile caller sends to one route. */
function probes(route: RouteSpec): Probe[] {
  const path = example(route);
  const out: Probe[] = [{ what: 'no credential', path }];
  if (route.pathParams) out.push({ what: 'bad percent-encoding', path: filled(route, () => '%E0%A4%A') });
  for (const [name, param] of Object.entries(route.queryParams ?? {})) {
    const good = param.enum?.[0] ?? (param.type === 'integer' ? '5' : 'x');
    for (const query of [`${name}=${good}&${name}=${good}`, `${name}[]=${good}&${name}[]=2`, `${name}[x]=1`, `${name}=`, `${name}=1.5`, `${name}=%00nope`]) {
      out.push({ what: `?${query}`, path: `${path}?${query}` });
    }
  }
  if (route.method !== 'GET') {
    for (const [what, body] of [
      ['malformed JSON', '{"protocol":'],
      ['not an object', '[1,2]'],
      ['wrong types', '{"protocol":12,"referenceId":[1],"assetIn":"x"}'],
      ['an unknown field', '{"nope":1}'],
      [
        'a huge decimal',
        JSON.stringify({ protocol: 'paper-swap', action: 'swap', assetIn: { token: 'USDC', amount: '9'.repeat(270) }, referenceId: 'huge-1' }),
      ],
      ['an empty body', ''],
    ] as const) {
      out.push({ what, path, body, headers: { 'content-type': 'application/json' } });
    }
    out.push({ what: 'an oversized body', path, body: JSON.stringify({ pad: 'x'.repeat(MAX_BODY) }), headers: { 'content-type': 'application/json' } });
    out.push({ what: 'a form body', path, body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    out.push({ what: 'a gzip body', path, body: new Uint8Array(gzipSync('{}')), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
  }
  return out;
}

/** The credentials to send each probe with: none, the wrong kinds, and the right one. */
function credentials(route: RouteSpec): [string, Record<string, string>][] {
  const all: [string, Record<string, string>][] = [
    ['anonymous', {}],
    ['a revoked key', bearer(keys.revoked)],
    ['a read-only key', bearer(keys.readOnly)],
    ['a full key', bearer(keys.full)],
    ['a wallet session', bearer(session)],
  ];
  if (route.security === 'operator') all.push(['the operator', bearer(OPERATOR)]);
  return all;
}

/** The routes the contract documents: the public and authenticated ones (internal rows, the operator's, are in neither). */
const DOCUMENTED = ROUTES.filter((r) => r.visibility === 'public' || r.visibility === 'authenticated');

it('documents every public and authenticated route', () => {
  for (const route of DOCUMENTED) expect(documented.get(route.operationId)?.size, route.operationId).toBeGreaterThan(0);
});

describe.each(DOCUMENTED.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  it('answers every refusal with a status and code its document declares', async () => {
    const undeclared: string[] = [];
    const codes = documented.get(route.operationId)!;
    for (const [who, auth] of credentials(route)) {
      for (const probe of probes(route)) {
        const res = await gw.get(probe.path, {
          method: route.method,
          headers: { ...auth, ...probe.headers },
          ...(probe.body !== undefined ? { body: probe.body as BodyInit } : {}),
        });
        if (res.status < 400) continue;
        const text = await res.text();
        const body = text ? JSON.parse(text) : {};
        if (route.errors?.[res.status]?.envelope) continue; // the spec's 404 envelopes
        const declared = codes.get(res.status);
        const ok = declared !== undefined && (declared === null ? true : declared.includes(body.code));
        if (!ok)
          undeclared.push(`${who}, ${probe.what}: ${res.status} ${body.code} (declared: ${declared === undefined ? 'no such status' : declared?.join(', ')})`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
