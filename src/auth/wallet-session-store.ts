/** A signed-in wallet: the account it acts for, until `expiresAt`. */
export interface WalletSession {
  accountId: string;
  wallet: string;
  createdAt: number;
  expiresAt: number;
}

/** Single-use sign-in nonces and wallet sessions stored by the SHA-256 of their token. */
export interface WalletSessionStore {
  putNonce(nonce: string, ttlMs: number): Promise<void>;
  /** True once per issued, unexpired nonce. */
  consumeNonce(nonce: string): Promise<boolean>;
  putSession(tokenHash: string, session: WalletSession, ttlMs: number): Promise<void>;
  getSession(tokenHash: string): Promise<WalletSession | undefined>;
  revokeSessions(accountId: string): Promise<void>;
}
