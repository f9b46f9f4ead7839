import type { WalletSession, WalletSessionStore } from '../../auth/wallet-session-store.js';
import type { SqliteDatabase } from './sqlite-database.js';

/** Single-use sign-in nonces and wallet sessions by token hash, each with its expiry. */
export class SqliteWalletSessionStore implements WalletSessionStore {
  private readonly insertNonce;
  private readonly deleteNonce;
  private readonly upsertSession;
  private readonly readSession;
  private readonly deleteSessions;

  constructor(
    db: SqliteDatabase,
    private readonly now: () => number = Date.now,
  ) {
    this.insertNonce = db.prepare<[string, number]>(
      'INSERT INTO siwe_nonces (nonce, expires_at) VALUES (?, ?) ON CONFLICT (nonce) DO UPDATE SET expires_at = excluded.expires_at',
    );
    this.deleteNonce = db.prepare<[string, number]>('DELETE FROM siwe_nonces WHERE nonce = ? AND expires_at > ?');
    this.upsertSession = db.prepare<[string, string, string, number]>(
      'INSERT INTO wallet_sessions (token_hash, account_id, record, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (token_hash) DO UPDATE SET account_id = excluded.account_id, record = excluded.record, expires_at = excluded.expires_at',
    );
    this.readSession = db.prepare<[string, number], { record: string }>('SELECT record FROM wallet_sessions WHERE token_hash = ? AND expires_at > ?');
    this.deleteSessions = db.prepare<[string]>('DELETE FROM wallet_sessions WHERE account_id = ?');
  }

  async putNonce(nonce: string, ttlMs: number): Promise<void> {
    this.insertNonce.run(nonce, this.now() + ttlMs);
  }

  async consumeNonce(nonce: string): Promise<boolean> {
    // One DELETE: exactly one caller, on any connection, sees the row go.
    return this.deleteNonce.run(nonce, this.now()).changes === 1;
  }

  async putSession(tokenHash: string, session: WalletSession, ttlMs: number): Promise<void> {
    this.upsertSession.run(tokenHash, session.accountId, JSON.stringify(session), this.now() + ttlMs);
  }

  async getSession(tokenHash: string): Promise<WalletSession | undefined> {
    const row = this.readSession.get(tokenHash, this.now());
    return row && (JSON.parse(row.record) as WalletSession);
  }

  async revokeSessions(accountId: string): Promise<void> {
    this.deleteSessions.run(accountId);
  }
}
