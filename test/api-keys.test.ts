import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/auth/api-key-secret.js';
import { readBootstrap } from '../src/auth/bootstrap-file.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { bearer, writeBootstrap, type BootstrapKeys } from './support/keys.js';

const run = promisify(execFile);
/** The keys CLI compiled (dist/, built by the tests' global setup): half the start-up of its sources under tsx. */
const keysCli = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ['dist/src/cli/keys.js', ...args], { env: { ...process.env, GATEWAY_DATA_DIR: dataDir }, cwd: process.cwd() });
/** `npm run keys` itself: the script runs the sources with tsx. */
const npmRunKeys = (dataDir: string, ...args: string[]) =>
  run('npm', ['run', '--silent', 'keys', '--', ...args], { env: { ...process.env, GATEWAY_DATA_DIR: dataDir }, cwd: process.cwd() });

describe('API keys from the bootstrap file and the keys CLI', () => {
  let gw: TestGateway;
  let boot: BootstrapKeys;
  let dataDir: string;
  beforeAll(async () => {
    boot = writeBootstrap();
    dataDir = mkdtempSync(join(tmpdir(), 'gw-data-'));
    gw = await startGateway({ bootstrapPath: boot.path, dataDir });
  });
  afterAll(() => gw.close());

  it('a key from the bootstrap file reads the portfolio of its account', async () => {
    const res = await gw.get('/api/v1/data/portfolio', { headers: bearer(boot.full) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data).toMatchObject({ accountId: 'acct-1', wallet: '0x1111111111111111111111111111111111111111' });
    const usdc = body.data.balances.find((b: any) => b.token === 'USDC');
    expect(usdc).toEqual({ token: 'USDC', amount: '100000', priceUsd: '1', valueUsd: '100000.00' });
  });

  it('a key created by the CLI works at once, lists without its secret, and a CLI revocation applies on the next request', async () => {
    const created = await npmRunKeys(dataDir, 'create', '--account', 'acct-1', '--scopes', 'data:read', '--label', 'test');
    const { id, key } = JSON.parse(created.stdout);
    expect(key).toMatch(/^tgw_[A-Za-z0-9_-]{43}$/);
    expect((await gw.get('/api/v1/data/perps/price/ETH', { headers: bearer(key) })).status).toBe(200);

    const listed = await keysCli(dataDir, 'list', '--account', 'acct-1');
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).not.toContain(key);

    await keysCli(dataDir, 'revoke', id);
    const res = await gw.get('/api/v1/data/perps/price/ETH', { headers: bearer(key) });
    expect(res.status).toBe(401);
    expect((await res.json()).details.reason).toBe('invalid');
  });

  it('the CLI refuses bad input with exit code 2 and a message', async () => {
    await expect(keysCli(dataDir, 'create', '--account', 'nobody')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("no account 'nobody'") });
    await expect(keysCli(dataDir, 'create', '--account', 'acct-1', '--scopes', 'admin')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown scope admin'),
    });
  });

  it('stores only hashes', async () => {
    // Every file of the data directory: gateway.db and its write-ahead log.
    const fs = await import('node:fs');
    const stored = fs
      .readdirSync(dataDir)
      .map((f) => fs.readFileSync(join(dataDir, f)).toString('latin1'))
      .join('\n');
    expect(stored).toContain(sha256Hex(boot.full));
    for (const secret of [boot.full, boot.readOnly, boot.previewOnly]) expect(stored).not.toContain(secret);
  });
});

describe('bootstrap validation', () => {
  const write = (content: unknown) => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-bad-')), 'bootstrap.json');
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const account = { id: 'a', wallet: '0x1111111111111111111111111111111111111111', balances: { USDC: '1' } };
  const key = { id: 'k', accountId: 'a', sha256: 'a'.repeat(64), scopes: ['data:read'] };

  it.each([
    ['not JSON', '{', /cannot read JSON/],
    ['bad wallet', { accounts: [{ ...account, wallet: '0x12' }], apiKeys: [] }, /accounts\[0\]\.wallet/],
    ['bad hash', { accounts: [account], apiKeys: [{ ...key, sha256: 'ABC' }] }, /apiKeys\[0\]\.sha256/],
    ['bad scope', { accounts: [account], apiKeys: [{ ...key, scopes: ['root'] }] }, /apiKeys\[0\]\.scopes\[0\]/],
    ['unknown account', { accounts: [account], apiKeys: [key, { ...key, id: 'k2', accountId: 'zz' }] }, /apiKeys\[1\]\.accountId: no account 'zz'/],
    ['duplicate id', { accounts: [account], apiKeys: [key, key] }, /apiKeys\[1\]\.id: duplicate/],
    ['bad balance', { accounts: [{ ...account, balances: { USDC: '-5' } }], apiKeys: [] }, /accounts\[0\]\.balances\.USDC/],
  ])('%s: start-up fails with a message naming the entry', (_case, content, message) => {
    expect(() => readBootstrap(write(content))).toThrow(message);
  });
});

describe('demo key', () => {
  it('is created once outside production without a bootstrap file, with every scope', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-demo-'));
    const first = await startGateway({ dataDir });
    const { demoKey } = await first.app.start({ ingest: false });
    expect(demoKey).toBeUndefined(); // startGateway already started it: the key was made then
    const keys = await first.app.stores.identities.listKeys('demo');
    expect(keys).toHaveLength(1);
    expect(keys[0]!.scopes).toEqual(['data:read', 'execute:preview', 'execute:live']);
    await first.close();
  });

  it('is returned by start() for the caller to print, and not in production', async () => {
    const { buildApp } = await import('../src/app.js');
    const { testConfig } = await import('../src/config/gateway-config.js');
    const app = buildApp(testConfig());
    const { demoKey } = await app.start({ ingest: false });
    expect(demoKey).toMatch(/^tgw_/);
    await app.stop();
    const prod = buildApp(testConfig({ env: 'production' }));
    expect((await prod.start({ ingest: false })).demoKey).toBeUndefined();
    await prod.stop();
  });
});
