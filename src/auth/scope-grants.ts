import type { AuthResult } from './authenticator.js';
import type { Scope } from './identity.js';

/** Every scope a field or route may ask for: the key scopes plus the kinds of caller. */
export type ScopeGrants = Record<Scope, boolean> & { authenticated: boolean; walletSession: boolean; operator: boolean };

/** What a resolved credential grants; the schema's scope checks and the transport's auth-first checks both read it. */
export function scopeGrants(auth: AuthResult, operator: boolean): ScopeGrants {
  const has = (s: Scope) => auth.kind !== 'anonymous' && auth.scopes.has(s);
  return {
    operator,
    authenticated: auth.kind !== 'anonymous',
    walletSession: auth.kind === 'wallet',
    'data:read': has('data:read'),
    'execute:preview': has('execute:preview'),
    'execute:live': has('execute:live'),
  };
}
