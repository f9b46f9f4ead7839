import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { ControlsSnapshot } from '../../src/controls/shared-controls.js';
import { verifyAuditChain } from '../../src/execution/audit-chain.js';
import { DataDirLock, DataDirLockedError } from '../../src/stores/sqlite/data-dir-lock.js';
import { groupCommitted, openEmbeddedStores, pruneExpired, sqliteExecutionStores } from '../../src/stores/sqlite/open-sqlite-stores.js';
import { SqliteGroupCommit } from '../../src/stores/sqlite/sqlite-group-commit.js';
import { DATABASE_FILE, openSqliteDatabase, type SqliteDatabase } from '../../src/stores/sqlite/sqlite-database.js';
import { SqliteIdentityStore } from '../../src/stores/sqlite/sqlite-identity-store.js';
import { importLegacyIdentities } from '../../src/stores/sqlite/sqlite-legacy-identities.js';
import { migrate, MIGRATIONS } from '../../src/stores/sqlite/sqlite-migrations.js';
import { executionStoresContract } from './execution-stores.contract.js';
import { expiringStoresContract, MovingClock } from './expiring-stores.contract.js';
import { identityStoreContract } from './identity-store.contract.js';
import { candleStoreContract } from './candle-store.contract.js';
import { fundingStoreContract } from './funding-store.contract.js';
import { DurableCandleStore, DurableFundingStore, DurableSpendingLedger } from '../../src/stores/sqlite/durable-market-history.js';
import { spendingLedgerContract } from './spending-ledger.contract.js';
import { SqliteMarketHistory } from '../../src/stores/sqlite/sqlite-market-history.js';

const silent = pino({ level: 'silent' });
const opened: { close(): void }[] = [];
afterAll(() => opened.splice(0).forEach((d) => d.close()));

const tempDir = (label = 'sqlite') => mkdtempSync(join(tmpdir(), `gw-${label}-`));
/** A fresh data directory with its migrated database, closed after the file's tests. */
function freshDb(dir = tempDir()): SqliteDatabase {
  const db = openSqliteDatabase(dir);
  opened.push(db);
  return db;
}

identityStoreContract('sqlite', async () => new SqliteIdentityStore(freshDb()));
/** The embedded market history (market-history.db), closed after the file's tests. */
function freshHistory(dir = tempDir('history')): SqliteMarketHistory {
  const history = new SqliteMarketHistory(dir, (err) => {
    throw err;
  });
  opened.push(history);
  return history;
}
candleStoreContract('sqlite market history', async () => new DurableCandleStore(freshHistory()));
spendingLedgerContract('sqlite market history', async () => new DurableSpendingLedger(freshHistory()));
fundingStoreContract('sqlite market history', async (retention) => new DurableFundingStore(freshHistory(), () => true, retention));
executionStoresContract('sqlite', async () => sqliteExecutionStores(freshDb()));
expiringStoresContract('sqlite', async (now) => sqliteExecutionStores(freshDb(), now));
// As the gateway runs them: every call inside the group commit's batches.
executionStoresContract('sqlite, group commit', async () => {
  const db = freshDb();
  return groupCommitted(new SqliteGroupCommit(db), sqliteExecutionStores(db));
});
expiringStoresContract('sqlite, group commit', async (now) => {
  const db = freshDb();
  return groupCommitted(new SqliteGroupCommit(db), sqliteExecutionStores(db, now));
});

describe('the embedded database file', () => {
  it('is in WAL mode with synchronous=FULL, foreign keys and a busy timeout', () => {
    const db = freshDb();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5_000);
  });

  it('keeps what was written across close and reopen', async () => {
    const dir = tempDir();
    const first = openSqliteDatabase(dir);
    const a = sqliteExecutionStores(first);
    await a.ledger.seed('acct', { USDC: '10.5' });
    await a.ledger.apply('acct', { USDC: '-0.25', WETH: '0.00000001' }, []);
    await a.audit.append('acct', { at: '2026-01-01T00:00:00.000Z', type: 'x', referenceId: null, details: { n: 1 } });
    first.close();
    const b = sqliteExecutionStores(freshDb(dir));
    expect(await b.ledger.balances('acct')).toEqual({ USDC: '10.25', WETH: '0.00000001' });
    await b.audit.append('acct', { at: '2026-01-01T00:00:01.000Z', type: 'y', referenceId: null, details: {} });
    const chain = await b.audit.list('acct', 10);
    expect(chain.map((e) => e.seq)).toEqual([1, 2]);
    expect(verifyAuditChain(chain).valid).toBe(true);
  });

  it('keeps ledger units exact as int64, beyond what a double holds', async () => {
    const { ledger } = sqliteExecutionStores(freshDb());
    await ledger.seed('acct', { BIG: '90000000000.00000001' }); // 9e18 units: past 2^53
    expect(await ledger.apply('acct', { BIG: '-0.00000001' }, [])).toEqual({ ok: true });
    expect(await ledger.balances('acct')).toEqual({ BIG: '90000000000' });
    await expect(ledger.apply('acct', { BIG: '10000000000' }, [])).rejects.toThrow(/int64/);
    expect(await ledger.balances('acct')).toEqual({ BIG: '90000000000' });
  });

  it('migrates a database written at an older schema version, keeping its rows', async () => {
    const dir = tempDir();
    const old = new Database(join(dir, DATABASE_FILE));
    expect(migrate(old, MIGRATIONS.slice(0, 1))).toEqual({ from: 0, to: 1 });
    old
      .prepare('INSERT INTO accounts (id, record) VALUES (?, ?)')
      .run('a1', JSON.stringify({ id: 'a1', wallet: '0x1', balances: { USDC: '5' }, createdAt: 'then' }));
    old.close();

    const db = freshDb(dir);
    const versions = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    expect(versions).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    expect(await new SqliteIdentityStore(db).getAccount('a1')).toMatchObject({ id: 'a1', balances: { USDC: '5' } });
    await sqliteExecutionStores(db).ledger.seed('a1', { USDC: '5' });
    expect(migrate(db)).toEqual({ from: MIGRATIONS.length, to: MIGRATIONS.length });
  });

  it('refuses a database from a newer gateway', () => {
    const dir = tempDir();
    const db = openSqliteDatabase(dir);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 'later')").run();
    db.close();
    expect(() => openSqliteDatabase(dir)).toThrow(/schema version 999 is newer than this gateway knows/);
  });

  it('prunes rows past their expiry', async () => {
    const clock = new MovingClock();
    const db = freshDb();
    const stores = sqliteExecutionStores(db, clock.now);
    await stores.idempotency.claim('k', 'fp', 1_000);
    await stores.walletSessions.putNonce('n', 1_000);
    await stores.walletSessions.putSession('h', { accountId: 'a', wallet: '0x1', createdAt: 0, expiresAt: 0 }, 5_000);
    await stores.agentSessions.addSpend('s', 0, '1', '10', 1_000);
    expect(pruneExpired(db, clock.at + 1_000)).toBe(3);
    expect(pruneExpired(db, clock.at + 5_000)).toBe(1);
  });
});

describe('legacy identities.json', () => {
  const legacy = {
    accounts: [{ id: 'old', wallet: '0x1111111111111111111111111111111111111111', balances: { USDC: '7' }, createdAt: '2026-01-01T00:00:00.000Z' }],
    apiKeys: [
      {
        id: 'k-old',
        accountId: 'old',
        sha256: 'a'.repeat(64),
        scopes: ['data:read'],
        revoked: false,
        createdAt: '2026-01-01T00:00:00.000Z',
        revokedAt: null,
        label: null,
      },
    ],
  };

  it('is imported once into a database without identities', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'identities.json'), JSON.stringify(legacy));
    const db = freshDb(dir);
    expect(importLegacyIdentities(db, dir)).toEqual({ accounts: 1, apiKeys: 1 });
    const store = new SqliteIdentityStore(db);
    expect(await store.findKeyByHash('a'.repeat(64))).toEqual(legacy.apiKeys[0]);
    await store.revokeKey('k-old', '2026-02-01T00:00:00.000Z');
    expect(importLegacyIdentities(db, dir)).toBeUndefined();
    expect(await store.getKey('k-old')).toMatchObject({ revoked: true });
  });

  it('is left alone when the database already has identities', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    await new SqliteIdentityStore(db).putAccount({ ...legacy.accounts[0]!, id: 'new' });
    writeFileSync(join(dir, 'identities.json'), JSON.stringify(legacy));
    expect(importLegacyIdentities(db, dir)).toBeUndefined();
    expect((await new SqliteIdentityStore(db).listAccounts()).map((a) => a.id)).toEqual(['new']);
  });
});

describe('operator controls', () => {
  it('survive closing and reopening the embedded stores', async () => {
    const dir = tempDir();
    const snapshot: ControlsSnapshot = {
      controls: {
        executionEnabled: false,
        disabledProtocols: [{ protocolId: 'paper-swap', reason: 'maintenance' }],
        killSwitch: { engaged: true, reason: 'drill' },
        circuitBreakers: [],
      },
      certifications: [{ protocol: 'paper-perps', action: 'place_order', state: 'canary' }],
    };
    const first = openEmbeddedStores(dir, silent);
    expect(await first.controls.load()).toBeUndefined();
    await first.controls.save(snapshot);
    first.close();
    const second = openEmbeddedStores(dir, silent);
    opened.push(second);
    expect(await second.controls.load()).toEqual(snapshot);
  });
});

describe('data-directory lock', () => {
  it('refuses a second owner naming the directory and the holder, and frees on release', () => {
    const dir = tempDir('lock');
    const lock = DataDirLock.acquire(dir);
    let refusal: unknown;
    try {
      DataDirLock.acquire(dir);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as Error).message).toBe(
      `data directory ${dir} is in use by another gateway process (pid ${process.pid}); stop it, or set GATEWAY_DATA_DIR to another directory`,
    );
    expect(() => openEmbeddedStores(dir, silent)).toThrow(DataDirLockedError);
    lock.release();
    expect(existsSync(join(dir, 'gateway.pid'))).toBe(false);
    const again = openEmbeddedStores(dir, silent);
    again.close();
  });
});

describe('racing processes on one database file', () => {
  /** Starts a worker process and resolves once it has opened the database. */
  function worker(dir: string, name: string, mode: 'group' | 'plain') {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'test/stores/sqlite-race-worker.ts', dir, name, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.setEncoding('utf8');
    const ready = new Promise<void>((resolve, reject) => {
      proc.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.startsWith('ready\n')) resolve();
      });
      proc.once('exit', (code) => reject(new Error(`worker ${name} exited ${code} before it was ready`)));
    });
    const result = new Promise<{ consumed: boolean; claimed: boolean; nonce: boolean; debits: number; spends: number; appended: number }>((resolve, reject) =>
      proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n')[1]!)) : reject(new Error(`worker ${name} exited ${code}: ${out}`)))),
    );
    return { ready, result, go: () => proc.stdin.end('go\n') };
  }

  it('one consumption, one claim, one nonce; exact ledger and spend caps; one unbroken audit chain', async () => {
    const NOW = 1_800_000_000_000;
    const dir = tempDir('race');
    const db = freshDb(dir);
    const stores = sqliteExecutionStores(db, () => NOW);
    await stores.approvals.create({
      id: 'a1',
      accountId: 'acct',
      wallet: '0x1',
      instructionHash: 'hash-1',
      instruction: {},
      state: 'pending',
      createdAt: NOW,
      expiresAt: NOW + 60_000,
      decidedAt: null,
      consumedAt: null,
      executionId: null,
    });
    await stores.approvals.decide('a1', 'approved', NOW);
    await stores.walletSessions.putNonce('race-nonce', 60_000);
    await stores.ledger.seed('acct', { USDC: '60.0000006' }); // 60 debits of 1.00000001

    // Two in group-commit batches as the gateway's stores run, one statement by statement (the keys CLI's way).
    const workers = ['w1', 'w2', 'w3'].map((name, i) => worker(dir, name, i === 0 ? 'plain' : 'group'));
    await Promise.all(workers.map((w) => w.ready));
    workers.forEach((w) => w.go());
    const results = await Promise.all(workers.map((w) => w.result));

    expect(results.filter((r) => r.consumed)).toHaveLength(1);
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
    expect(results.filter((r) => r.nonce)).toHaveLength(1);
    expect(results.reduce((n, r) => n + r.debits, 0)).toBe(60);
    expect(await stores.ledger.balances('acct')).toEqual({ USDC: '0' });
    expect(results.reduce((n, r) => n + r.spends, 0)).toBe(25); // 250 / 10
    const chain = await stores.audit.list('acct', 1_000);
    expect(chain.map((e) => e.seq)).toEqual(Array.from({ length: 75 }, (_, i) => i + 1));
    expect(verifyAuditChain(chain)).toEqual({ valid: true, brokenAt: null });
    const winner = results.findIndex((r) => r.consumed);
    expect(await stores.approvals.get('a1')).toMatchObject({ state: 'consumed', executionId: `exe-w${winner + 1}` });
  }, 60_000);
});

describe('the embedded market history (market-history.db)', () => {
  const MIN = 60_000;
  const candle = (i: number, close = String(i)) => ({ start: i * MIN, open: '1', high: close, low: '1', close, volume: '2' });

  it('keeps a venue’s candles and funding across a restart; a simulator’s funding is not written', async () => {
    const dir = tempDir('history');
    const first = new SqliteMarketHistory(dir, (err) => {
      throw err;
    });
    const candles = new DurableCandleStore(first);
    await candles.upsertCandles('BTC-PERP', MIN, [candle(1), candle(2)]);
    await candles.record('SIM', { time: 5 * MIN, price: '3', volume: '1' }); // sampled: made again at each start
    const funding = new DurableFundingStore(first, (id) => id === 'BTC-PERP');
    await funding.append('BTC-PERP', { time: 3_600_000, rate: '0.0001' });
    await funding.append('SIM-PERP', { time: 3_600_000, rate: '0.0002' });
    first.close();

    const second = freshHistory(dir);
    const reopened = new DurableCandleStore(second);
    expect(await reopened.range('BTC-PERP', MIN, 0, 10 * MIN)).toEqual([candle(1), candle(2)]);
    expect(await reopened.latest('BTC-PERP', MIN)).toBe(2 * MIN);
    expect(await reopened.range('SIM', MIN, 0, 10 * MIN)).toEqual([]);
    const refunded = new DurableFundingStore(second, () => true);
    expect(await refunded.latest('BTC-PERP', 10)).toEqual([{ time: 3_600_000, rate: '0.0001' }]);
    expect(await refunded.latest('SIM-PERP', 10)).toEqual([]);
  });

  it('reads nothing and throws nothing once closed (a deferred series produced while the gateway stops)', async () => {
    const dir = tempDir('history');
    const writer = freshHistory(dir);
    writer.writeCandles('ETH-PERP', MIN, [candle(1)]);
    writer.close();
    const history = new SqliteMarketHistory(dir, (err) => {
      throw err;
    });
    const store = new DurableCandleStore(history);
    history.close();
    expect(await store.range('ETH-PERP', MIN, 0, 10 * MIN)).toEqual([]);
    expect(() => history.prune(MIN, 0)).not.toThrow();
  });
});
