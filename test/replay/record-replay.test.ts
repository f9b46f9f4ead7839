import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRecordings } from '../../src/replay/recording.js';
import { ReplayPlayer } from '../../src/venues/hyperliquid/replay/player.js';
import { loadRecordedData } from '../../src/venues/hyperliquid/replay/recorded.js';
import { startHyperliquidReplay, type HyperliquidReplay } from '../../src/venues/hyperliquid/replay/start.js';
import type { HyperliquidReplayControls } from '../../src/venues/hyperliquid/replay/controls.js';
import { eventually, GATEWAY_ENTRY, Replica } from '../support/replicas.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run record -- …` as a user runs it: exit code and what it printed. */
function record(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'record', '--', ...args], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'test' } }, (err, _stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

/** `node dist/src/main.js` with `env`, expected to refuse to start: its exit code and message. */
function refusedStart(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [GATEWAY_ENTRY],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', PORT: '0', GATEWAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-replay-')), ...env } },
      (err, _stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

describe('npm run record, then GATEWAY_REPLAY', () => {
  let fake: HyperliquidReplay;
  const recordings = mkdtempSync(join(tmpdir(), 'gw-recordings-'));
  const out = join(recordings, 'hyperliquid');
  let replica: Replica | undefined;

  beforeAll(async () => {
    // The venue, as far as the recorder can tell: the wire fake serving the shipped fixtures.
    fake = await startHyperliquidReplay({ perpCount: 30 });
  });
  afterAll(async () => {
    await replica?.stop();
    await fake?.close();
  });

  it('records the venue through its SDK into the fixtures’ format, each file saying where and when, within its weight budget', async () => {
    const { code, stderr } = await record(['hyperliquid', '--api-url', fake.httpUrl, '--out', out, '--coins', 'BTC,ETH', '--weight-per-minute', '1200']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/recorded l2Book-BTC\.json: 20 bids, 20 asks/);
    expect(stderr).toMatch(/14 recordings written/);
    const files = readdirSync(out).sort();
    expect(files).toEqual(
      [
        'allMids.json',
        'meta.json',
        'metaAndAssetCtxs.json',
        'spotMetaAndAssetCtxs.json',
        ...['BTC', 'ETH'].flatMap((c) => [
          `l2Book-${c}.json`,
          `candleSnapshot-${c}-1m.json`,
          `candleSnapshot-${c}-1h.json`,
          `candleSnapshot-${c}-1d.json`,
          `fundingHistory-${c}.json`,
        ]),
      ].sort(),
    );
    for (const r of await loadRecordings(out)) {
      expect(r.status).toBe(200);
      expect(r.source).toMatchObject({ method: 'POST', url: `${fake.httpUrl}/info`, network: 'mainnet' });
      expect(Date.now() - Date.parse(String(r.source.recordedAt))).toBeLessThan(120_000);
    }
    // What was recorded is what the venue answered to that request.
    const book = JSON.parse(await readFile(join(out, 'l2Book-ETH.json'), 'utf8'));
    expect(book.request).toEqual({ type: 'l2Book', coin: 'ETH' });
    const asked = fake.controls.requests().filter((r) => r.type !== undefined);
    expect(asked.reduce((sum, r) => sum + r.weight, 0)).toBeLessThanOrEqual(1_200);
    // The replay's loader reads them as it reads the shipped fixtures.
    const data = await loadRecordedData(out);
    expect(data.universe).toHaveLength(30);
    expect([...data.books.keys()].sort()).toEqual(['BTC', 'ETH']);
    expect(data.candles.get('BTC|1d')!.length).toBeGreaterThan(300);
    expect(data.funding.get('ETH')!.length).toBe(500);
  });

  it('never overwrites recordings unless asked, and names what it cannot record', async () => {
    const again = await record(['hyperliquid', '--api-url', fake.httpUrl, '--out', out, '--coins', 'BTC']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/--overwrite/);
    const unknown = await record(['alpaca']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/cannot record alpaca/);
  });

  it('GATEWAY_REPLAY serves the recordings through the real adapter: a replay venue, the recorded candles, streams that move', async () => {
    replica = await Replica.start('replay', { GATEWAY_REPLAY: recordings, GATEWAY_REPLAY_SPEED: '10', RATE_LIMIT_PUBLIC_PER_MINUTE: '100000' });
    const status = (await replica.status()).body.data;
    expect(status.venues.find((v: any) => v.id === 'hyperliquid')).toMatchObject({ mode: 'replay', kind: 'perpetuals' });
    expect(status.venues.find((v: any) => v.id === 'hyperliquid').upstream).toContain(out);
    // The recorded daily candles of BTC, served as recorded (closed days).
    const recorded = JSON.parse(await readFile(join(out, 'candleSnapshot-BTC-1d.json'), 'utf8')).response as { t: number; c: string }[];
    const days = await eventually(
      'BTC days from the replay',
      async () => {
        const points = (await (await replica!.get('/api/v1/public/markets/BTC/history?resolution=1d&limit=366')).json()).data.points;
        return points.length > 300 ? points : undefined;
      },
      20_000,
    );
    const byStart = new Map(recorded.map((c) => [c.t, c.c]));
    const closed = days.filter((p: any) => p.closed && byStart.has(Date.parse(p.time)));
    expect(closed.length).toBeGreaterThan(300);
    for (const p of closed) expect(p.close).toBe(byStart.get(Date.parse(p.time)));
    // Mids stream at ten times the venue's pace: the price moves within a couple of seconds.
    const first = (await (await replica.get('/api/v1/public/markets/BTC')).json()).data.price;
    await eventually('a streamed BTC price', async () => (await (await replica!.get('/api/v1/public/markets/BTC')).json()).data.price !== first, 5_000);
  });

  it('refuses a folder without recordings, and a replayed venue also pointed at the real one, naming the variables', async () => {
    const empty = await refusedStart({ GATEWAY_REPLAY: mkdtempSync(join(tmpdir(), 'gw-empty-')) });
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toMatch(/GATEWAY_REPLAY=.* holds no recordings/);
    const both = await refusedStart({ GATEWAY_REPLAY: recordings, HYPERLIQUID_NETWORK: 'mainnet' });
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/GATEWAY_REPLAY replays hyperliquid .* HYPERLIQUID_NETWORK would point it at the real venue/);
  });
});

describe('the replay player', () => {
  it('moves mids every second at speed 1 and ten times a second at speed 10; books and candles only of what is subscribed', async () => {
    vi.useFakeTimers();
    try {
      const pushed = { mids: 0, books: [] as string[], candles: [] as string[] };
      const controls = {
        pushAllMids: () => ++pushed.mids,
        pushL2Book: (coin: string) => void pushed.books.push(coin),
        pushCandle: (coin: string) => void pushed.candles.push(coin),
        wsSubscriptions: () => [
          { connection: 1, subscription: { type: 'l2Book', coin: 'BTC' } },
          { connection: 1, subscription: { type: 'candle', coin: 'ETH', interval: '1m' } },
        ],
      } as unknown as HyperliquidReplayControls;
      const normal = new ReplayPlayer(controls, 1);
      normal.start();
      await vi.advanceTimersByTimeAsync(10_000);
      normal.stop();
      expect(pushed).toEqual({ mids: 10, books: Array(5).fill('BTC'), candles: ['ETH', 'ETH'] });
      pushed.mids = 0;
      const fast = new ReplayPlayer(controls, 10);
      fast.start();
      await vi.advanceTimersByTimeAsync(1_000);
      fast.stop();
      expect(pushed.mids).toBe(10);
    } finally {
      vi.useRealTimers();
    }
  });
});
