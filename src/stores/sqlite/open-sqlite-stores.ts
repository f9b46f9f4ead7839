import type { Logger } from 'pino';
import type { ExecutionStores } from '../../execution/execution-stores.js';
import { DataDirLock } from './data-dir-lock.js';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite-database.js';
import { SqliteAgentSessionStore } from './sqlite-agent-session-store.js';
import { SqliteApprovalStore } from './sqlite-approval-store.js';
import { SqliteAuditStore } from './sqlite-audit-store.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { SqliteControlsStore } from './sqlite-controls-store.js';
import { SqliteExecutionStore } from './sqlite-execution-store.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store.js';
import { SqliteIdentityStore } from './sqlite-identity-store.js';
import { importLegacyIdentities } from './sqlite-legacy-identities.js';
import { SqliteLedgerStore } from './sqlite-ledger-store.js';
import { SqliteWalletSessionStore } from './sqlite-wallet-session-store.js';

/** How often rows past their expiry are deleted; reads ignore them before that. */
const PRUNE_EVERY_MS = 60_000;

/** The execution plane's stores on one database; expiries follow `now` (the app clock). */
export function sqliteExecutionStores(db: SqliteDatabase, now: () => number = Date.now): ExecutionStores {
  return {
    idempotency: new SqliteIdempotencyStore(db, now),
    approvals: new SqliteApprovalStore(db),
    executions: new SqliteExecutionStore(db),
    agentSessions: new SqliteAgentSessionStore(db, now),
    walletSessions: new SqliteWalletSessionStore(db, now),
    ledger: new SqliteLedgerStore(db),
    audit: new SqliteAuditStore(db),
  };
}

/** The execution stores with every call run in the group commit's batches (src/stores/sqlite/sqlite-group-commit.ts). */
export function groupCommitted(commits: SqliteGroupCommit, stores: ExecutionStores): ExecutionStores {
  return Object.fromEntries(Object.entries(stores).map(([name, store]) => [name, commits.wrap(store as object)])) as unknown as ExecutionStores;
}

/** Deletes expired nonces, wallet sessions, idempotency records and spend counters (with their entries); returns how many. */
export function pruneExpired(db: SqliteDatabase, now: number): number {
  return db
    .transaction(() => {
      const expired = ['idempotency', 'siwe_nonces', 'wallet_sessions', 'agent_spend'].reduce(
        (n, table) => n + db.prepare(`DELETE FROM ${table} WHERE expires_at <= ?`).run(now).changes,
        0,
      );
      const orphans = db.prepare(
        'DELETE FROM agent_spend_entries WHERE NOT EXISTS (SELECT 1 FROM agent_spend s WHERE s.session_id = agent_spend_entries.session_id AND s.period_start = agent_spend_entries.period_start)',
      );
      return expired + orphans.run().changes;
    })
    .immediate();
}

export interface EmbeddedStores {
  db: SqliteDatabase;
  identities: SqliteIdentityStore;
  execution: ExecutionStores;
  controls: SqliteControlsStore;
  /** The commits the stores above share (one per event-loop turn). */
  commits: SqliteGroupCommit;
  close(): void;
}

/**
 * The embedded mode's durable stores: takes the data directory's process lock (throwing
 * DataDirLockedError when another gateway holds it), opens and migrates gateway.db, imports a
 * legacy identities.json once, and prunes expired rows every minute.
 */
export function openEmbeddedStores(dataDir: string, logger: Logger, now: () => number = Date.now): EmbeddedStores {
  const lock = DataDirLock.acquire(dataDir);
  let db: SqliteDatabase | undefined;
  try {
    db = openSqliteDatabase(dataDir);
    const imported = importLegacyIdentities(db, dataDir);
    if (imported) logger.info({ dataDir, ...imported }, 'imported the legacy identities.json into gateway.db; the file is no longer read');
    pruneExpired(db, now());
  } catch (err) {
    db?.close();
    lock.release();
    throw err;
  }
  const opened = db;
  const commits = new SqliteGroupCommit(opened, (err) => logger.error({ err }, 'an event after a commit could not be published'));
  const execution = groupCommitted(commits, sqliteExecutionStores(opened, now));
  // WAL checkpoints on a worker thread, not in the commit (and the event-loop turn) that crosses SQLite's threshold.
  const checkpointer = new SqliteCheckpointer(opened, (err) => logger.warn({ err }, 'the WAL checkpointer failed; the gateway connection checkpoints itself'));
  // Through the group commit like every store call: a prune that fails ends its batch as a failure.
  const prune = commits.wrap({ run: async () => pruneExpired(opened, now()) });
  const pruner = setInterval(() => {
    prune.run().catch((err: unknown) => logger.warn({ err }, 'could not prune expired rows'));
  }, PRUNE_EVERY_MS);
  pruner.unref();
  return {
    db: opened,
    identities: commits.wrap(new SqliteIdentityStore(opened)),
    execution,
    controls: commits.wrap(new SqliteControlsStore(opened, now)),
    commits,
    close() {
      clearInterval(pruner);
      checkpointer.close();
      if (opened.open) commits.flush();
      if (opened.open) opened.close();
      lock.release();
    },
  };
}
