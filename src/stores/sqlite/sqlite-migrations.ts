import type { Database } from 'better-sqlite3';

/** One step of the schema; applied once, in order, inside the opening transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The embedded database's schema, oldest first. Append only: a released migration is never
 * edited, so a database written by any earlier gateway can be brought forward.
 * Money stays exact: ledger amounts are int64 units of 1e-8 and spend counters int64 cents.
 * Expiring rows carry `expires_at` (epoch ms of the app clock); a row past it counts as absent.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'identities',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      CREATE TABLE accounts (id TEXT PRIMARY KEY, record TEXT NOT NULL) STRICT;
      CREATE TABLE api_keys (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, sha256 TEXT NOT NULL, record TEXT NOT NULL) STRICT;
      CREATE INDEX api_keys_by_account ON api_keys (account_id);
      CREATE INDEX api_keys_by_sha256 ON api_keys (sha256);`,
  },
  {
    version: 2,
    name: 'execution plane',
    sql: `
      CREATE TABLE idempotency (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, value TEXT, expires_at INTEGER NOT NULL) STRICT;
      CREATE INDEX idempotency_by_expiry ON idempotency (expires_at);
      CREATE TABLE approvals (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, record TEXT NOT NULL) STRICT;
      CREATE TABLE executions (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, reference_id TEXT NOT NULL, record TEXT NOT NULL) STRICT;
      CREATE TABLE execution_refs (
        account_id TEXT NOT NULL, reference_id TEXT NOT NULL, execution_id TEXT NOT NULL REFERENCES executions (id),
        PRIMARY KEY (account_id, reference_id)) STRICT;
      CREATE TABLE agent_sessions (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, record TEXT NOT NULL) STRICT;
      CREATE INDEX agent_sessions_by_account ON agent_sessions (account_id);
      CREATE TABLE agent_spend (
        session_id TEXT NOT NULL, period_start INTEGER NOT NULL, cents INTEGER NOT NULL, expires_at INTEGER NOT NULL,
        PRIMARY KEY (session_id, period_start)) STRICT;
      CREATE INDEX agent_spend_by_expiry ON agent_spend (expires_at);
      CREATE TABLE siwe_nonces (nonce TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) STRICT;
      CREATE INDEX siwe_nonces_by_expiry ON siwe_nonces (expires_at);
      CREATE TABLE wallet_sessions (token_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL, record TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT;
      CREATE INDEX wallet_sessions_by_account ON wallet_sessions (account_id);
      CREATE INDEX wallet_sessions_by_expiry ON wallet_sessions (expires_at);
      CREATE TABLE ledgers (account_id TEXT PRIMARY KEY) STRICT;
      CREATE TABLE ledger_balances (
        account_id TEXT NOT NULL REFERENCES ledgers (account_id), token TEXT NOT NULL, units INTEGER NOT NULL,
        PRIMARY KEY (account_id, token)) STRICT;
      CREATE TABLE audit_entries (
        account_id TEXT NOT NULL, seq INTEGER NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, entry TEXT NOT NULL,
        PRIMARY KEY (account_id, seq)) STRICT;`,
  },
  {
    version: 3,
    name: 'operator controls',
    sql: `CREATE TABLE operator_controls (id INTEGER PRIMARY KEY CHECK (id = 1), snapshot TEXT NOT NULL, updated_at INTEGER NOT NULL) STRICT;`,
  },
  {
    version: 4,
    name: 'venue orders, spend entries, open executions',
    sql: `CREATE TABLE venue_orders (account_id TEXT NOT NULL, order_id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (account_id, order_id)) STRICT;
      CREATE TABLE agent_spend_entries (
        session_id TEXT NOT NULL, period_start INTEGER NOT NULL, entry_id TEXT NOT NULL, cents INTEGER NOT NULL,
        PRIMARY KEY (session_id, period_start, entry_id)) STRICT;
      CREATE INDEX executions_open ON executions (json_extract(record, '$.state')) WHERE json_extract(record, '$.state') IN ('accepted', 'submitted', 'unknown');`,
  },
  {
    version: 5,
    name: 'execution and approval listings',
    sql: `
      CREATE INDEX executions_by_account_time ON executions (account_id, json_extract(record, '$.createdAt') DESC, id DESC);
      CREATE INDEX approvals_by_account_time ON approvals (account_id, json_extract(record, '$.createdAt') DESC, id DESC);`,
  },
  {
    version: 6,
    name: 'orders routed to real venues',
    sql: `
      CREATE INDEX executions_resting ON executions (json_extract(record, '$.order.resting')) WHERE json_extract(record, '$.order.resting') = 1;
      CREATE INDEX executions_by_client_order_id ON executions (json_extract(record, '$.order.clientOrderId')) WHERE json_extract(record, '$.order.clientOrderId') IS NOT NULL;`,
  },
];

/**
 * Brings the schema to the last migration in one IMMEDIATE transaction, so a gateway and the
 * keys CLI opening the same file at once never apply a step twice. Refuses a database written
 * by a newer gateway rather than guess at its schema.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  return db
    .transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
      const from = (db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
      const latest = migrations.at(-1)?.version ?? 0;
      if (from > latest) throw new Error(`${db.name}: schema version ${from} is newer than this gateway knows (${latest}); run a newer gateway`);
      const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
      for (const m of migrations) {
        if (m.version <= from) continue;
        db.exec(m.sql);
        record.run(m.version, m.name, new Date().toISOString());
      }
      return { from, to: Math.max(from, latest) };
    })
    .immediate();
}
