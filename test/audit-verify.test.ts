import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';

/** A client verifies the audit chain itself from what GET /api/v1/audit shows (README, Audit log), without the gateway's code. */
let gw: TestGateway;
let keys: BootstrapKeys;
beforeAll(async () => {
  keys = writeBootstrap();
  gw = await startGateway({ bootstrapPath: keys.path }, SESSION_TIME);
});
afterAll(() => gw.close());

describe('the audit chain, verified by a client', () => {
  it('every entry hashes its shown fields, accountId included, and links to the one before', async () => {
    await call(gw, 'POST', '/api/v1/execute/preview', keys.full, perpOrder('audit-1'));
    await call(gw, 'POST', '/api/v1/execute', keys.full, perpOrder('audit-1'));
    const { entries } = (await (await call(gw, 'GET', '/api/v1/audit?limit=100', keys.full)).json()) as { entries: Record<string, unknown>[] };
    expect(entries.length).toBeGreaterThanOrEqual(2);
    let prev = '0'.repeat(64);
    for (const { hash, ...fields } of entries) {
      expect(fields.accountId).toBe('acct-1');
      expect(fields.prevHash).toBe(prev);
      expect(createHash('sha256').update(canonicalize(fields)!).digest('hex')).toBe(hash);
      prev = hash as string;
    }
  });
});
