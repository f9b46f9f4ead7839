import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../src/auth/api-key-secret.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { RawGraphqlWs } from './support/ws-raw.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ env: 'production', rateLimits: { publicPerMinute: 1e6, keyPerMinute: 1e6 } });
});
afterAll(() => gw.close());

/** Attacks that used to block the event loop or exhaust the heap, each small enough to pass the body limit. */
const ATTACKS = [
  `{ ${Array.from({ length: 1_000 }, (_, i) => `a${i}: market(asset: "BTC") { data { price } }`).join(' ')} }`,
  `{ ${'a { '.repeat(3_000)}b${' }'.repeat(3_000)} }`,
  `{ ...F0 } ${Array.from({ length: 1_000 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} }`).join(' ')} fragment F1000 on Query { status { data { mode } } }`,
  `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: market(asset: "BTC") { data { price } }`).join(' ')} ${'__typename '.repeat(1_500)} }`,
];

const post = (query: string, headers: Record<string, string> = {}) =>
  gw.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? Infinity;

describe('a sustained attack from several clients', () => {
  it('keeps legitimate callers responsive and memory flat', async () => {
    // Warm up, then take the baseline.
    for (let i = 0; i < 20; i++) await (await post('{ market(asset: "BTC") { data { price } } }')).text();
    const before = heapMb();
    const stopAt = Date.now() + 4_000;
    const statuses = new Map<number, number>();
    const attacker = async (n: number) => {
      for (let i = n; Date.now() < stopAt; i++) {
        const res = await post(ATTACKS[i % ATTACKS.length]!, i % 3 === 0 ? { authorization: `Bearer ${newApiKey()}` } : {});
        await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const socketAttacker = async () => {
      while (Date.now() < stopAt) {
        const ws = await RawGraphqlWs.connect(gw.baseUrl);
        for (let i = 0; i < 120; i++) ws.subscribe(`s${i}`, 'subscription { marketUpdated(asset: "BTC") { asset } }');
        ws.subscribe('bad', 'subscription { marketUpdated(asset: ');
        await ws.until((m) => m.id === 'bad');
        ws.close();
        await ws.until('close');
      }
    };
    const latencies: number[] = [];
    const legitimate = async () => {
      while (Date.now() < stopAt) {
        const t0 = performance.now();
        const res = await post('{ market(asset: "BTC") { data { price } } }');
        expect(res.status).toBe(200);
        await res.json();
        latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await Promise.all([attacker(0), attacker(1), attacker(2), attacker(3), socketAttacker(), legitimate()]);
    const after = heapMb();
    const attacks = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(
      `sustained attack: ${attacks} refused requests (${JSON.stringify(Object.fromEntries(statuses))}); legitimate p99 ${p99(latencies).toFixed(0)} ms over ${latencies.length} calls; heap ${before.toFixed(1)} → ${after.toFixed(1)} MB`,
    );
    expect([...statuses.keys()].every((s) => s === 400)).toBe(true);
    expect(latencies.length).toBeGreaterThan(20);
    expect(p99(latencies)).toBeLessThan(750);
    expect(after - before).toBeLessThan(64);
  }, 30_000);
});
