import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import { authenticationError } from '../src/auth/auth-errors.js';
import { scopeGrants, type ScopeGrants } from '../src/auth/scope-grants.js';
import type { GatewayContext } from '../src/http/context/gateway-context.js';

export interface GatewaySchemaTypes {
  Context: GatewayContext;
  // Non-null by default: OpenAPI `required` lists come from it (STACK.md).
  DefaultFieldNullability: false;
  AuthScopes: ScopeGrants;
  Scalars: {
    DateTime: { Input: string; Output: string | number | Date };
    Decimal: { Input: string; Output: string };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
  };
}

export const builder = new SchemaBuilder<GatewaySchemaTypes>({
  plugins: [ScopeAuthPlugin, RelayPlugin],
  defaultFieldNullability: false,
  // Connections only (the viewer's lists): no global object identification, so no node/nodes root fields.
  relay: { nodeQueryOptions: false, nodesQueryOptions: false, cursorType: 'String' },
  scopeAuth: {
    // Resolved once per request, and only when a guarded field is selected.
    authScopes: async (ctx) => scopeGrants(await ctx.auth.resolve(), ctx.services.operator.matches(ctx.auth.header)),
    unauthorizedError: (_parent, ctx, _info, result) => authenticationError(ctx.auth.current, requiredScopeOf(result.failure)),
  },
});

/** The scope a failed check asked for; failures nest (any/all of several scopes). */
function requiredScopeOf(failure: AuthFailure): string | undefined {
  if (failure.kind === AuthScopeFailureType.AuthScope) return failure.scope === 'authenticated' ? undefined : failure.scope;
  if ('failures' in failure)
    for (const f of failure.failures) {
      const scope = requiredScopeOf(f);
      if (scope) return scope;
    }
  return undefined;
}
