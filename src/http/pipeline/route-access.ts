import { Kind, type DocumentNode, type GraphQLSchema, type SelectionSetNode, getOperationAST } from 'graphql';
import { authenticationError } from '../../auth/auth-errors.js';
import type { RequestAuth } from '../../auth/authenticator.js';
import type { Scope } from '../../auth/identity.js';
import { scopeGrants, type ScopeGrants } from '../../auth/scope-grants.js';
import type { RouteSpec } from '../../contract/route-spec.js';
import type { OperatorAccess } from '../../controls/operator-access.js';
import type { GatewayError } from '../../errors/gateway-error.js';

/** A route anyone may call: the public plane and the sign-in routes. */
export function isOpenRoute(route: RouteSpec): boolean {
  return route.visibility === 'public' || route.security === 'none';
}

/**
 * Spec, Authentication 3, decided from the registry row alone, before the body or any argument is
 * read: the 401 a non-public route answers for this credential, or undefined when it may proceed.
 */
export async function routeAuthError(route: RouteSpec, auth: RequestAuth, operator: OperatorAccess): Promise<GatewayError | undefined> {
  if (isOpenRoute(route)) return undefined;
  if (route.security === 'operator') return operator.matches(auth.header) ? undefined : authenticationError(undefined, 'operator');
  const result = await auth.resolve();
  if (result.kind === 'anonymous') return authenticationError(result, undefined);
  if (route.security === 'wallet_session' && result.kind !== 'wallet') return authenticationError(result, 'walletSession');
  const missing = route.scopes.find((s) => !result.scopes.has(s as Scope));
  return missing ? authenticationError(result, missing) : undefined;
}

type FieldScopes = Partial<Record<keyof ScopeGrants, boolean>> | ((...args: never[]) => unknown) | undefined;

/**
 * The same check for a GraphQL operation, before variables are coerced: each root field's Pothos
 * `authScopes` (any one listed scope grants it; a scope function needs at least a credential and
 * decides the rest when the field resolves).
 */
export async function rootFieldsAuthError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  auth: RequestAuth,
  operator: OperatorAccess,
): Promise<GatewayError | undefined> {
  const op = getOperationAST(document, operationName);
  const root = op && schema.getRootType(op.operation);
  if (!op || !root) return undefined;
  const fields = root.getFields();
  let grants: ScopeGrants | undefined;
  for (const name of rootFieldNames(document, op.selectionSet)) {
    const scopes = (fields[name]?.extensions as { pothosOptions?: { authScopes?: FieldScopes } } | undefined)?.pothosOptions?.authScopes;
    if (!scopes) continue;
    grants ??= scopeGrants(await auth.resolve(), operator.matches(auth.header));
    const wanted = typeof scopes === 'function' ? { authenticated: true } : scopes;
    const names = Object.keys(wanted).filter((k) => wanted[k as keyof ScopeGrants]) as (keyof ScopeGrants)[];
    if (names.some((s) => grants![s])) continue;
    const first = names[0];
    if (first === 'operator') return authenticationError(auth.current, 'operator');
    return authenticationError(auth.current, first === 'authenticated' ? undefined : first);
  }
  return undefined;
}

/** Root field names of an operation, through inline fragments and fragment spreads (each fragment once). */
function rootFieldNames(document: DocumentNode, selectionSet: SelectionSetNode): Set<string> {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const names = new Set<string>();
  const seen = new Set<string>();
  const pending = [selectionSet];
  for (let set = pending.pop(); set; set = pending.pop()) {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) names.add(s.name.value);
      else if (s.kind === Kind.INLINE_FRAGMENT) pending.push(s.selectionSet);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const fragment = fragments.get(s.name.value);
        if (fragment) pending.push(fragment.selectionSet);
      }
    }
  }
  return names;
}
