import type { IdentityStore } from '../stores/identity-store.js';
import { parseBearer, sameDigest, sha256Hex, type BearerProblem } from './api-key-secret.js';
import type { Account, ApiKeyRecord, Scope } from './identity.js';

export type AuthResult =
  | { kind: 'key'; key: ApiKeyRecord; account: Account; scopes: ReadonlySet<Scope> }
  | { kind: 'anonymous'; problem: BearerProblem | 'invalid' };

/** Resolves a request's Authorization header to an API key and its account. */
export class Authenticator {
  constructor(private readonly identities: IdentityStore) {}

  async authenticate(header: string | null | undefined): Promise<AuthResult> {
    const bearer = parseBearer(header);
    if ('problem' in bearer) return { kind: 'anonymous', problem: bearer.problem };
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
    private readonly header: string | null | undefined,
  ) {}

  resolve(): Promise<AuthResult> {
    this.pending ??= this.authenticator.authenticate(this.header).then((r) => (this.current = r));
    return this.pending;
  }
}
