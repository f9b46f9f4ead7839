import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLimits } from '../src/config/limits-config.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { RawGraphqlWs } from './support/ws-raw.js';

/** Production settings with the defaults, and a gateway whose byte and token limits are raised so the later rules are reached. */
let gw: TestGateway;
let wide: TestGateway;
let bytesOnly: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: 'production' });
  wide = await startGateway({
    limits: readLimits({ GATEWAY_MAX_BODY_BYTES: '4000000', GRAPHQL_MAX_DOCUMENT_BYTES: '2000000', GRAPHQL_MAX_TOKENS: '200000', GRAPHQL_MAX_COST: '60' }),
  });
  bytesOnly = await startGateway({ limits: readLimits({ GATEWAY_MAX_BODY_BYTES: '4000000', GRAPHQL_MAX_DOCUMENT_BYTES: '2000000' }) });
});
afterAll(async () => {
  await gw.close();
  await wide.close();
  await bytesOnly.close();
});

const ALIASES = `{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: market(asset: "BTC") { data { price } }`).join(' ')} }`;
const DEEP = `{ ${'market(asset: "BTC") { '.repeat(1)}${'a { '.repeat(10_000)}b${' }'.repeat(10_001)} }`;
const FRAGMENTS = `{ ...F0 } ${Array.from({ length: 5_000 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} }`).join(' ')} fragment F5000 on Query { status { data { overall } } }`;
const DIRECTIVES = `{ market(asset: "BTC") ${'@include(if: true) '.repeat(40)}{ data { price } } }`;

const post = (target: TestGateway, query: string, headers: Record<string, string> = {}) =>
  target.get('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });

/** Times one refusal: status, body and milliseconds. */
async function refusal(target: TestGateway, query: string) {
  const t0 = performance.now();
  const res = await post(target, query);
  const body = await res.json();
  const ms = Math.round(performance.now() - t0);
  return { status: res.status, body, ms };
}

describe('bounded GraphQL over HTTP (application/json too)', () => {
  it.each([
    ['10,000 aliases', ALIASES, 'aliases'],
    ['a 10,000-deep selection', DEEP, 'tokens'],
    ['5,000 nested fragments', FRAGMENTS, 'tokens'],
  ])('%s: 400 query_too_complex in milliseconds, by size, tokens or its own rule', async (name, query, byRule) => {
    for (const [target, limit] of [
      [gw, 'document_bytes'],
      [bytesOnly, 'tokens'],
      [wide, byRule === 'tokens' ? 'depth' : byRule],
    ] as const) {
      const r = await refusal(target, query);
      // With the defaults, a body over GATEWAY_MAX_BODY_BYTES is refused before GraphQL sees it.
      const byBody = r.status === 413 && target === gw;
      console.log(`${name} (${(query.length / 1024).toFixed(0)} KB) refused by ${byBody ? 'body size' : limit} in ${r.ms} ms`);
      if (byBody) {
        expect(r.body.code).toBe('payload_too_large');
        continue;
      }
      expect(r.status).toBe(400);
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'query_too_complex', details: { limit } });
      expect(JSON.stringify(r.body)).not.toMatch(/Syntax Error|stack|originalError/);
      expect(r.ms).toBeLessThan(5_000); // ~50 ms on an idle machine; the unbounded server blocked for 7-19 s
    }
  });

  it('depth and directives over their limits, and cost: 400', async () => {
    const deep = `{ ${'a { '.repeat(20)}b${' }'.repeat(20)} }`;
    expect((await refusal(gw, deep)).body.errors[0].extensions.details.limit).toBe('depth');
    expect((await refusal(gw, DIRECTIVES)).body.errors[0].extensions.details.limit).toBe('directives');
    const costly = `{ ${Array.from({ length: 20 }, (_, i) => `m${i}: market(asset: "BTC") { data { price asset } }`).join(' ')} }`;
    const r = await refusal(wide, costly);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.details.limit).toBe('cost');
  });

  it('the documented queries and introspection pass', async () => {
    for (const query of [getIntrospectionQuery(), '{ market(asset: "BTC") { data { price } freshness { stale } } }', '{ protocols { data { id } } }']) {
      const res = await post(gw, query);
      expect(res.status, query.slice(0, 40)).toBe(200);
      expect((await res.json()).errors).toBeUndefined();
    }
  });

  it('field suggestions are masked in production', async () => {
    const body = await (await post(gw, '{ markts { data { price } } }')).json();
    expect(JSON.stringify(body)).not.toMatch(/Did you mean/);
  });
});

describe('bounded GraphQL over graphql-ws', () => {
  it('a refused document answers that operation with an error; the socket stays open', async () => {
    const ws = await RawGraphqlWs.connect(gw.baseUrl);
    ws.subscribe('big', `subscription { ${Array.from({ length: 40 }, (_, i) => `a${i}: marketUpdated(asset: "BTC") { asset }`).join(' ')} }`);
    const err = await ws.until((m) => m.id === 'big');
    expect(err).toMatchObject({ type: 'error', payload: [{ extensions: { code: 'query_too_complex' } }] });
    ws.subscribe('syntax', 'subscription { marketUpdated(asset: ');
    expect(await ws.until((m) => m.id === 'syntax')).toMatchObject({ type: 'error' });
    ws.subscribe('ok', '{ status { data { mode } } }');
    expect(await ws.until((m) => m.id === 'ok')).toMatchObject({ type: 'next' });
    expect(ws.closed).toBeUndefined();
    ws.close();
  });
});

describe('bounded GraphQL over SSE', () => {
  it('the alias attack is refused before it runs', async () => {
    const res = await wide.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: ALIASES }),
    });
    const text = await res.text();
    expect(text).toMatch(/query_too_complex/);
    expect(text).not.toMatch(/"price"/);
  });
});
