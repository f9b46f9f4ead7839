export const SCOPES = ['data:read', 'execute:preview', 'execute:live'] as const;
export type Scope = (typeof SCOPES)[number];

/** A paper account: its wallet address and balances (decimal strings by token). */
export interface Account {
  id: string;
  wallet: string;
  balances: Record<string, string>;
  createdAt: string;
}

/** An API key as stored: only the SHA-256 of the secret, never the secret. */
export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** Lowercase hex SHA-256 of the key exactly as sent after `Bearer `. */
  sha256: string;
  scopes: Scope[];
  revoked: boolean;
  createdAt: string;
  revokedAt: string | null;
  label: string | null;
}
