import { insufficientScope, operatorRequired, unauthenticated, walletSessionRequired } from '../errors/auth-refusals.js';
import type { GatewayError } from '../errors/gateway-error.js';
import type { AuthResult } from './authenticator.js';

/**
 * Spec, Authentication 3: a missing, malformed, revoked or unscoped key is 401. The message says
 * which, but never whether a given key exists (unknown and revoked read the same).
 */
export function authenticationError(auth: AuthResult | undefined, requiredScope: string | undefined): GatewayError {
  if (requiredScope === 'operator') return operatorRequired();
  if (!auth || auth.kind === 'anonymous') return unauthenticated(auth?.problem ?? 'missing');
  if (requiredScope === 'walletSession') return walletSessionRequired();
  return insufficientScope(requiredScope, [...auth.scopes]);
}
