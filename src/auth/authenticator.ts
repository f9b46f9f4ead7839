import type { WalletSession } from './wallet-session-store.js';
import type { IdentityStore } from './identity-store.js';
import { parseBearer, sameDigest, sha256Hex, type BearerProblem } from './api-key-secret.js';
import { SCOPES, type Account, type ApiKeyRecord, type Scope } from './identity.js';
import { SESSION_PREFIX } from './wallet-sessions.js';

export type AuthResult =
  | { kind: 'key'; key: ApiKeyRecord; account: Account; scopes: ReadonlySet<Scope> }
  | { kind: 'wallet'; session: WalletSession; sessionId: string; account: Account; scopes: ReadonlySet<Scope> }
  | { kind: 'anonymous'; problem: BearerProblem | 'invalid' };

export type Principal = Exclude<AuthResult, { kind: 'anonymous' }>;

/** Looks a wallet-session token up (WalletSessions.sessionFor). */
export type WalletSessionLookup = (token: string) => Promise<WalletSession | undefined>;

/**
 * Resolves a request's Authorization header: an API key (scoped), or a wallet session from
 * sign-in with Ethereum (the account holder, every scope for its own account).
 */
export class Authenticator {
  constructor(
    private readonly identities: IdentityStore,
    private readonly walletSession: WalletSessionLookup = async () => undefined,
  ) {}

  async authenticate(header: string | null | undefined): Promise<AuthResult> {
    const bearer = parseBearer(header);
    if ('problem' in bearer) return { kind: 'anonymous', problem: bearer.problem };
    if (bearer.token.startsWith(SESSION_PREFIX)) {
      const session = await this.walletSession(bearer.token);
      const account = session && (await this.identities.getAccount(session.accountId));
      if (!session || !account) return { kind: 'anonymous', problem: 'invalid' };
      return { kind: 'wallet', session, sessionId: sha256Hex(bearer.token).slice(0, 16), account, scopes: new Set(SCOPES) };
    }
    const digest = sha256Hex(bearer.token);
    const key = await this.identities.findKeyByHash(digest);
    // Unknown and revoked keys are indistinguishable to the caller.
    if (!key || !sameDigest(key.sha256, digest) || key.revoked) return { kind: 'anonymous', problem: 'invalid' };
    const account = await this.identities.getAccount(key.accountId);
    if (!account) return { kind: 'anonymous', problem: 'invalid' };
    return { kind: 'key', key, account, scopes: new Set(key.scopes) };
  }
}

/** One request's authentication, resolved at most once and only if a field needs it. */
export class RequestAuth {
  private pending: Promise<AuthResult> | undefined;
  current: AuthResult | undefined;

  constructor(
    private readonly authenticator: Authenticator,
    readonly header: string | null | undefined,
  ) {}

  resolve(): Promise<AuthResult> {
    this.pending ??= this.authenticator.authenticate(this.header).then((r) => (this.current = r));
    return this.pending;
  }
}
