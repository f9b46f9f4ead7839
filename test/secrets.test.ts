import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ rateLimits: { publicPerMinute: 10_000, keyPerMinute: 10_000 } });
});
afterAll(() => gw.close());

/** Longest substring two strings share (dynamic programming; the strings are short). */
function longestCommon(a: string, b: string): number {
  let best = 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) if (a[i - 1] === b[j - 1]) best = Math.max(best, (row[j] = prev[j - 1]! + 1));
    prev = row;
  }
  return best;
}

describe('unpredictable secrets', () => {
  it('sign-in nonces: at least 128 bits, no shared substrings, no sequence', async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 60; i++) nonces.push((await (await gw.get('/api/v1/auth/siwe/nonce', { method: 'POST' })).json()).nonce);
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const n of nonces) expect(n).toMatch(/^[0-9a-f]{32,}$/);
    let worst = 0;
    for (let i = 0; i < nonces.length; i++) for (let j = i + 1; j < nonces.length; j++) worst = Math.max(worst, longestCommon(nonces[i]!, nonces[j]!));
    // Random 48-hex strings share about 5 characters at most; viem's sliding window shared 47.
    expect(worst).toBeLessThan(10);
  });
});
