import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHyperliquidReplay, type HyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import { freePort } from '../support/redis.js';
import { eventually } from '../support/replicas.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The README's one line that serves Hyperliquid's real data, as written there. */
function documentedLine(): string {
  const line = readFileSync(join(ROOT, 'README.md'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('HYPERLIQUID_NETWORK=') && l.includes('npm start'));
  if (!line) throw new Error('README.md has no line starting HYPERLIQUID_NETWORK=… npm start');
  return line.trim();
}

/**
 * The README's Hyperliquid line run by a shell exactly as written, with the two variables the
 * README documents for going elsewhere (HYPERLIQUID_API_URL, HYPERLIQUID_WS_URL) pointing it at
 * the local fake instead of the internet.
 */
describe('the README’s line for Hyperliquid mainnet', () => {
  let fake: HyperliquidReplay;
  let proc: ChildProcess | undefined;
  let port: number;
  const output: string[] = [];

  beforeAll(async () => {
    fake = await startHyperliquidReplay({ perpCount: 200 });
    port = await freePort();
  });
  afterAll(async () => {
    if (proc && proc.exitCode === null) {
      // The shell, npm and the gateway: the whole process group.
      process.kill(-proc.pid!, 'SIGTERM');
      await new Promise((resolve) => proc!.once('exit', resolve));
    }
    await fake?.close();
  });

  it('serves the venue’s real perpetuals through npm start, the other venues simulated', { timeout: 60_000 }, async () => {
    const line = documentedLine();
    expect(line).toBe('HYPERLIQUID_NETWORK=mainnet npm start');
    const startedAt = Date.now();
    proc = spawn('sh', ['-c', line], {
      cwd: ROOT,
      detached: true,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        PORT: String(port),
        HOST: '127.0.0.1',
        GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-documented-')),
        HYPERLIQUID_API_URL: fake.httpUrl,
        HYPERLIQUID_WS_URL: fake.wsUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [proc.stdout!, proc.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const status = await eventually(
      'the gateway on the venue',
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/public/status`).catch(() => undefined);
        return res?.ok ? (await res.json()).data : undefined;
      },
      30_000,
    );
    const firstAnswerMs = Date.now() - startedAt;
    const venues = Object.fromEntries(status.venues.map((v: any) => [v.id, v]));
    expect(venues.hyperliquid, output.join('')).toMatchObject({ mode: 'real', network: 'mainnet', kind: 'perpetuals' });
    expect(venues['paper-equities']).toMatchObject({ mode: 'simulated' });
    const btc = await (await fetch(`http://127.0.0.1:${port}/api/v1/public/markets/BTC`)).json();
    expect(btc.data).toMatchObject({ id: 'BTC-PERP', protocol: 'hyperliquid' });
    const perps = (await (await fetch(`http://127.0.0.1:${port}/api/v1/public/markets`)).json()).data.filter((m: any) => m.kind === 'perpetual');
    expect(perps.length).toBe(fake.controls.assetNames().length - 14); // the fake keeps 14 delisted coins in its universe
    // npm start, a build already there, the catalogue of ~200 perps: answering within seconds (bench measures it properly).
    expect(firstAnswerMs).toBeLessThan(20_000);
  });
});
