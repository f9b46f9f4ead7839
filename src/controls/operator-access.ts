import { parseBearer, sameDigest, sha256Hex } from '../auth/api-key-secret.js';

/** The operator's bearer token (GATEWAY_OPERATOR_TOKEN); without one, operator routes refuse everyone. */
export class OperatorAccess {
  private readonly digest: string | undefined;

  constructor(token: string | undefined) {
    this.digest = token ? sha256Hex(token) : undefined;
  }

  matches(header: string | null | undefined): boolean {
    const bearer = parseBearer(header);
    return this.digest !== undefined && 'token' in bearer && sameDigest(sha256Hex(bearer.token), this.digest);
  }
}
