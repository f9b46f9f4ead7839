import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, perpOrder, SESSION_TIME } from './support/execution.js';
import { startGateway, type TestGateway } from './support/gateway.js';
import { writeBootstrap, type BootstrapKeys } from './support/keys.js';
import { SIWE_DOMAIN, TEST_WALLET, walletSession } from './support/wallet.js';

/** Paging back through history, funding and the audit log with signed cursors, over real HTTP. */
let gw: TestGateway;
let keys: BootstrapKeys;
beforeAll(async () => {
  keys = writeBootstrap(TEST_WALLET.address);
  gw = await startGateway({ bootstrapPath: keys.path, siweDomain: SIWE_DOMAIN }, SESSION_TIME);
});
afterAll(() => gw.close());

const json = async (path: string, key?: string) => {
  const res = await call(gw, 'GET', path, key);
  return { status: res.status, body: await res.json() };
};
const tamper = (cursor: string) => `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;

describe('history cursors', () => {
  it('page back past 366 points, contiguous and without overlap', async () => {
    const first = (await json('/api/v1/public/markets/BTC/history?resolution=1h')).body.data;
    expect(first.points).toHaveLength(366);
    const second = (await json(`/api/v1/public/markets/BTC/history?resolution=1h&cursor=${first.nextCursor}`)).body.data;
    expect(second.points).toHaveLength(366);
    expect(Date.parse(first.points[0].time) - Date.parse(second.points.at(-1).time)).toBe(3_600_000);
    // The rule: a cursor is `to` = the oldest point's time − 1 ms.
    const byTo = (await json(`/api/v1/public/markets/BTC/history?resolution=1h&to=${new Date(Date.parse(first.points[0].time) - 1).toISOString()}`)).body.data;
    expect(byTo.points).toEqual(second.points);
  });

  it('refuses a forged cursor or one of another market or resolution with 400 invalid_public_market_history_query', async () => {
    const eth = (await json('/api/v1/public/markets/ETH/history?resolution=1h&limit=2')).body.data.nextCursor;
    for (const path of [
      `/api/v1/public/markets/BTC/history?resolution=1h&cursor=${eth}`,
      `/api/v1/public/markets/ETH/history?resolution=1d&cursor=${eth}`,
      `/api/v1/public/markets/ETH/history?resolution=1h&cursor=${tamper(eth)}`,
      '/api/v1/public/markets/ETH/history?cursor=not-a-cursor',
    ]) {
      const res = await json(path);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('invalid_public_market_history_query');
    }
  });
});

describe('funding history cursors', () => {
  it('page back through the kept entries, then end', async () => {
    const first = (await json('/api/v1/data/perps/funding/history/BTC?limit=500', keys.readOnly)).body.data;
    expect(first.entries).toHaveLength(500);
    const second = (await json(`/api/v1/data/perps/funding/history/BTC?limit=500&cursor=${first.nextCursor}`, keys.readOnly)).body.data;
    expect(second.entries).toHaveLength(220);
    expect(second.nextCursor).toBeNull();
    expect(Date.parse(first.entries[0].time) - Date.parse(second.entries.at(-1).time)).toBe(3_600_000);
    const forged = await json(`/api/v1/data/perps/funding/history/BTC?cursor=${tamper(first.nextCursor)}`, keys.readOnly);
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('invalid_funding_history_query');
  });
});

describe('audit log cursors', () => {
  it('page back to the chain start, each page verifying; a forged cursor is 400', async () => {
    const wallet = await walletSession(gw);
    for (let i = 0; i < 5; i++) expect((await call(gw, 'POST', '/api/v1/execute/preview', wallet, perpOrder(`audit-${i}`))).status).toBe(200);
    const seqs: number[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await json(`/api/v1/audit?limit=2${cursor ? `&cursor=${cursor}` : ''}`, keys.readOnly)).body;
      expect(page.chainValid).toBe(true);
      seqs.unshift(...page.entries.map((e: any) => e.seq));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    const head = (await json('/api/v1/audit?limit=1', keys.readOnly)).body.nextCursor;
    const forged = await json(`/api/v1/audit?cursor=${tamper(head)}`, keys.readOnly);
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('invalid_cursor');
  });
});
