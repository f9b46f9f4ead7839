import { GatewayError } from './gateway-error.js';

/** Why a presented credential is not one (never whether a given key exists: unknown and revoked read the same). */
export type CredentialProblem = 'missing' | 'empty' | 'scheme' | 'malformed' | 'oversized' | 'invalid';

const MESSAGES: Record<CredentialProblem, string> = {
  missing: 'Authentication required: send Authorization: Bearer <API key>.',
  empty: 'The Authorization header carries no API key.',
  scheme: 'The Authorization header must use the Bearer scheme.',
  malformed: 'The API key is malformed.',
  oversized: 'The Authorization header is too long.',
  invalid: 'The API key is unknown or revoked.',
};

/** Spec, Authentication 3: a missing, malformed or revoked key is 401; the message says which. */
export function unauthenticated(problem: CredentialProblem): GatewayError {
  return new GatewayError(401, 'unauthenticated', MESSAGES[problem], {
    details: { reason: problem },
    retryable: false,
    nextAction: 'Create a key with `npm run keys -- create` and send it as a Bearer token.',
  });
}

/** Spec, Authentication 3: a key not scoped to the request is 401 too. */
export function insufficientScope(requiredScope: string | undefined, keyScopes: readonly string[]): GatewayError {
  return new GatewayError(401, 'insufficient_scope', `This API key lacks the scope ${requiredScope ?? 'needed'} for this request.`, {
    details: { reason: 'scope', requiredScope, keyScopes },
    retryable: false,
    nextAction: `Use a key with the ${requiredScope} scope.`,
  });
}

export function walletSessionRequired(): GatewayError {
  return new GatewayError(401, 'wallet_session_required', 'This request needs a wallet session: sign in with Ethereum.', {
    details: { reason: 'wallet_session' },
    retryable: false,
    nextAction: 'POST /api/v1/auth/siwe/nonce, sign the EIP-4361 message, then POST /api/v1/auth/siwe/verify.',
  });
}

export function operatorRequired(): GatewayError {
  return new GatewayError(401, 'operator_required', 'This route needs the operator token.', { details: { reason: 'operator' }, retryable: false });
}

/** A sign-in or re-authentication signature that does not hold. */
export function walletSignatureInvalid(message: string, details: Record<string, unknown> = {}): GatewayError {
  return new GatewayError(401, 'wallet_signature_invalid', message, {
    details,
    retryable: false,
    nextAction: 'Get a new nonce from POST /api/v1/auth/siwe/nonce and sign a new message.',
  });
}

/** GET /metrics without its token (a plain Bearer challenge: the token is no API key). */
export function metricsTokenRequired(): GatewayError {
  return new GatewayError(401, 'unauthorized', 'GET /metrics needs Authorization: Bearer <GATEWAY_METRICS_TOKEN>.', {
    retryable: false,
    headers: { 'www-authenticate': 'Bearer' },
  });
}
