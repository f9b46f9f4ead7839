import { GatewayError } from '../errors/gateway-error.js';
import type { AuthResult } from './authenticator.js';

const MESSAGES = {
  missing: 'Authentication required: send Authorization: Bearer <API key>.',
  empty: 'The Authorization header carries no API key.',
  scheme: 'The Authorization header must use the Bearer scheme.',
  malformed: 'The API key is malformed.',
  oversized: 'The Authorization header is too long.',
  invalid: 'The API key is unknown or revoked.',
} as const;

/**
 * Spec, Authentication 3: a missing, malformed, revoked or unscoped key is 401. The message says
 * which, but never whether a given key exists (unknown and revoked read the same).
 */
export function authenticationError(auth: AuthResult | undefined, requiredScope: string | undefined): GatewayError {
  if (requiredScope === 'operator') {
    return new GatewayError(401, 'operator_required', 'This route needs the operator token.', { details: { reason: 'operator' }, retryable: false });
  }
  if (!auth || auth.kind === 'anonymous') {
    const problem = auth?.problem ?? 'missing';
    return new GatewayError(401, 'unauthenticated', MESSAGES[problem], {
      details: { reason: problem },
      retryable: false,
      nextAction: 'Create a key with `npm run keys -- create` and send it as a Bearer token.',
    });
  }
  if (requiredScope === 'walletSession') {
    return new GatewayError(401, 'wallet_session_required', 'This request needs a wallet session: sign in with Ethereum.', {
      details: { reason: 'wallet_session' },
      retryable: false,
      nextAction: 'POST /api/v1/auth/siwe/nonce, sign the EIP-4361 message, then POST /api/v1/auth/siwe/verify.',
    });
  }
  return new GatewayError(401, 'insufficient_scope', `This API key lacks the scope ${requiredScope ?? 'needed'} for this request.`, {
    details: { reason: 'scope', requiredScope, keyScopes: [...auth.scopes] },
    retryable: false,
    nextAction: `Use a key with the ${requiredScope} scope.`,
  });
}
