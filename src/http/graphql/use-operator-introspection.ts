import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import { execute, Kind, visit, BREAK, type DocumentNode, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { OperatorAccess } from '../../controls/operator-access.js';
import type { GatewayContext } from '../context/gateway-context.js';

/** A root field only the operator token may call (Pothos `authScopes: { operator: true }`). */
function operatorOnly(field: GraphQLFieldConfig<unknown, unknown>): boolean {
  const scopes = (field.extensions as { pothosOptions?: { authScopes?: unknown } } | undefined)?.pothosOptions?.authScopes;
  return typeof scopes === 'object' && scopes !== null && (scopes as { operator?: boolean }).operator === true;
}

/** Whether a document asks for `__schema` or `__type` anywhere (remembered per parsed document). */
function introspects(document: DocumentNode, seen: WeakMap<DocumentNode, boolean>): boolean {
  let found = seen.get(document);
  if (found !== undefined) return found;
  found = false;
  visit(document, {
    [Kind.FIELD]: (node) => {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  seen.set(document, found);
  return found;
}

/**
 * Introspection stays on (agents use it), but a caller without the operator token sees the schema
 * without the operator's fields (and the types only they use). Calling them is refused by the
 * auth-first check either way; this only keeps them out of what anyone can list.
 */
export function useOperatorIntrospection(operator: OperatorAccess): Plugin<GatewayContext> {
  const publicSchemas = new WeakMap<GraphQLSchema, GraphQLSchema>();
  const documents = new WeakMap<DocumentNode, boolean>();
  const publicSchema = (schema: GraphQLSchema) => {
    let filtered = publicSchemas.get(schema);
    if (!filtered) {
      filtered = pruneSchema(filterSchema({ schema, rootFieldFilter: (_type, _name, field) => !operatorOnly(field) }));
      publicSchemas.set(schema, filtered);
    }
    return filtered;
  };
  return {
    onExecute({ args, setExecuteFn }) {
      if (!introspects(args.document, documents)) return;
      if (operator.matches((args.contextValue as GatewayContext).auth.header)) return;
      setExecuteFn((a) => execute({ ...a, schema: publicSchema(a.schema) }));
    },
  };
}
