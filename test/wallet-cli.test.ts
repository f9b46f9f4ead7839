import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT, DEV_WALLET_PRIVATE_KEY } from '../src/auth/key-issuer.js';
import { call, perpOrder } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { signedMessage, TEST_WALLET } from './support/wallet.js';

/**
 * The wallet CLI as a real process against a real gateway, whose SIWE domain is 127.0.0.1 (no port).
 * Compiled (dist/, built by the tests' global setup): half the start-up of its sources under tsx.
 * One case runs the sources as `npm run wallet` does (tsx, here as a loader in one process).
 */
const CLI = fileURLToPath(new URL('../dist/src/cli/wallet.js', import.meta.url));
const CLI_SOURCES = ['--import', 'tsx', fileURLToPath(new URL('../src/cli/wallet.ts', import.meta.url))];

let gw: TestGateway;
let keys: BootstrapKeys;
let dir: string;
beforeAll(async () => {
  keys = writeBootstrap(privateKeyToAccount(DEV_WALLET_PRIVATE_KEY).address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: '127.0.0.1' });
  dir = mkdtempSync(join(tmpdir(), 'gw-wallet-'));
});
afterAll(() => gw.close());

async function wallet(args: string[], env: Record<string, string> = {}, entry: string[] = [CLI]): Promise<{ code: number; stdout: string; stderr: string }> {
  // The CLI signs at the real time; the test gateway's clock stands still, and a slow machine would
  // otherwise put the CLI's issued-at past the gateway's 30 s skew allowance. Market data is polled
  // at the new time, so orders still see a fresh book.
  gw.clock.set(Math.max(gw.clock.now(), Date.now()));
  await gw.app.services.ingest.pollAll();
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...entry, ...args, '--url', gw.baseUrl, '--wallet-file', join(dir, 'w.json')], {
      env: { ...process.env, NODE_ENV: 'development', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run wallet (development only)', () => {
  it('the demo account wallet is the well-known development key the helper signs with', () => {
    expect(DEMO_ACCOUNT.wallet).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(privateKeyToAccount(DEV_WALLET_PRIVATE_KEY).address).toBe(DEMO_ACCOUNT.wallet);
  });

  it('refuses to run with NODE_ENV=production (its sources, as npm run wallet runs them)', async () => {
    const run = await wallet(['address'], { NODE_ENV: 'production' }, CLI_SOURCES);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/production/);
  });

  it('signs in (the message names 127.0.0.1:<port>, accepted for the configured 127.0.0.1), then the session reads', async () => {
    const run = await wallet(['sign-in']);
    expect(run.stderr).toMatch(/PUBLIC development key/);
    const token = run.stdout.trim();
    expect(token).toMatch(/^tgws_/);
    expect((await call(gw, 'GET', '/api/v1/agent-sessions', token)).status).toBe(200);
  }, 30_000);

  it('executes an order through preview, approval and a fresh signature, and opens an agent session for a key', async () => {
    const order = join(dir, 'order.json');
    writeFileSync(order, JSON.stringify(perpOrder('wallet-cli-1', { assetIn: { token: 'BTC', amount: '0.01' } })));
    const run = await wallet(['execute', '--order', order]);
    expect(run.stderr).not.toMatch(/HTTP/);
    expect(JSON.parse(run.stdout)).toMatchObject({ referenceId: 'wallet-cli-1', state: 'filled', principalKind: 'wallet_session' });
    const args = ['agent-session', '--api-key-id', 'k-full', '--protocols', 'paper-perps', '--actions', 'place_order', '--assets', 'BTC'];
    const session = await wallet([...args, '--max-order', '1000', '--max-period', '5000']);
    expect(JSON.parse(session.stdout)).toMatchObject({ apiKeyId: 'k-full', assets: ['BTC'], active: true });
    const refused = await wallet([...args, '--max-order', '9000', '--max-period', '5000']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/HTTP 400.*maxOrderNotional/);
  }, 60_000);

  it('creates a new local wallet, which has no account until one is made for it', async () => {
    const created = await wallet(['new']);
    expect(created.stdout.trim()).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect((await wallet(['address'])).stdout.trim()).toBe(created.stdout.trim());
    const signIn = await wallet(['sign-in']);
    expect(signIn.code).toBe(1);
    expect(signIn.stderr).toMatch(/HTTP 401.*No account uses this wallet/);
  }, 30_000);
});

describe('SIWE domain with a port', () => {
  it('accepts the configured host with any port, refuses another host; a configured port must match exactly', async () => {
    const withPort = await startGateway({ bootstrapPath: keys.path, siweDomain: 'localhost:8080' });
    try {
      for (const [target, domain, status] of [
        [gw, '127.0.0.1:8443', 200],
        [gw, '127.0.0.2:8443', 401],
        [withPort, 'localhost:8080', 200],
        [withPort, 'localhost:9090', 401],
        [withPort, 'localhost', 401],
      ] as const) {
        const signed = await signedMessage(target, { wallet: TEST_WALLET, domain });
        expect((await call(target, 'POST', '/api/v1/auth/siwe/verify', undefined, signed)).status, domain).toBe(status);
      }
    } finally {
      await withPort.close();
    }
  });
});
