import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type GatewayApp } from '../src/app.js';
import { testConfig } from '../src/config/gateway-config.js';
import { prefillOnConnect } from './support/history.js';
import { redisForSuites, TEST_REDIS_URL, uniquePrefix } from './support/redis.js';

/** Issue 9's smaller points: one demo key among replicas started together, a keys CLI that never guesses its store. */
const redisUp = await redisForSuites();
const cli = (env: Record<string, string>, ...args: string[]) =>
  promisify(execFile)(process.execPath, ['dist/src/cli/keys.js', ...args], { env: { PATH: process.env.PATH ?? '', ...env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe.skipIf(!redisUp)('start-up and the keys CLI on a shared Redis', () => {
  const apps: GatewayApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.stop())));

  it('replicas started together without a bootstrap file create one demo key between them', async () => {
    const config = testConfig({ mode: 'redis', redisUrl: TEST_REDIS_URL, redisKeyPrefix: uniquePrefix('demo') });
    // History is not under test: each writes it from the worker's candle memo instead of sampling it again.
    const replica = (): GatewayApp => {
      const app: GatewayApp = buildApp(config, { faults: { stores: (s) => prefillOnConnect(s, () => app.services.reader.directory.markets, Date.now) } });
      return app;
    };
    apps.push(...[0, 1, 2].map(replica));
    const started = await Promise.all(apps.map((a) => a.start({ ingest: false })));
    expect(started.filter((s) => s.demoKey).length).toBe(1);
    expect((await apps[0]!.stores.identities.listKeys('demo')).length).toBe(1);
  });

  it('the keys CLI refuses REDIS_URL without REDIS_KEY_PREFIX, and names the store it used', async () => {
    const refused = await cli({ REDIS_URL: TEST_REDIS_URL }, 'list');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/REDIS_KEY_PREFIX is not/);
    const prefix = uniquePrefix('cli');
    const ok = await cli({ REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix }, 'list');
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain(`keys: store Redis ${new URL(TEST_REDIS_URL).toString()} prefix ${prefix}`);
  });
});

describe('the documented deployment', () => {
  it('gives the operator routes a token from the environment on every replica', () => {
    const compose = readFileSync('docker-compose.yml', 'utf8');
    expect(compose).toMatch(/GATEWAY_OPERATOR_TOKEN: \$\{GATEWAY_OPERATOR_TOKEN:\?/);
  });
});
