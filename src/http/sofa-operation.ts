import { buildOperationNodeForField } from '@graphql-tools/utils';
import {
  GraphQLBoolean,
  isEqualType,
  isInputObjectType,
  isScalarType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type TypeNode,
} from 'graphql';
import { parse as qsParse } from 'qs';
import type { GatewaySofa } from './use-sofa-routes.js';

/**
 * The document Sofa executes for a Query route, built by the same call with the same options as
 * sofa-api 0.18 `createQueryRoute` (models, ignore list and depth limit of the Sofa in use).
 * Pinned with the other copied versions in copied-internals.ts.
 */
export function sofaQueryDocument(sofa: GatewaySofa, fieldName: string): { document: DocumentNode; operation: OperationDefinitionNode } {
  const operation = buildOperationNodeForField({
    kind: OperationTypeNode.QUERY,
    schema: sofa.schema,
    field: fieldName,
    models: sofa.models,
    ignore: sofa.ignore,
    circularReferenceDepth: sofa.depthLimit,
  });
  return { document: { kind: Kind.DOCUMENT, definitions: [operation] }, operation };
}

/**
 * Variables as Sofa reads them for a GET route (sofa-api 0.18 `useHandler`, `pickParam`,
 * `parseVariable`; not exported by the package): a path parameter by name, else the `qs`-parsed
 * query string, an empty value counting as absent; scalars go through the type's `serialize`,
 * Boolean from 'true', input objects from JSON, lists element by element. Throws as Sofa does on
 * a value the type cannot represent (the caller answers 400 as Sofa's handler does).
 */
export function sofaGetVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  params: Record<string, string>,
  search: string | undefined,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  let query: Record<string, unknown> | undefined;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    let value: unknown;
    if (name in params) value = params[name];
    else {
      query ??= qsParse(search);
      // `||`, as Sofa: an empty string is absent (GET has no body to fall back to).
      value = query[name] || undefined;
    }
    if (value === undefined || value === null) continue;
    const parsed = resolveVariable(schema, value, definition.type);
    if (parsed !== undefined) variables[name] = parsed;
  }
  return variables;
}

function resolveVariable(schema: GraphQLSchema, value: unknown, type: TypeNode): unknown {
  if (type.kind === Kind.NAMED_TYPE) {
    const named = schema.getType(type.name.value);
    if (isScalarType(named)) return named.serialize(isEqualType(GraphQLBoolean, named) ? value === 'true' || value === true : value);
    if (isInputObjectType(named)) return value && typeof value === 'object' ? value : JSON.parse(value as string);
    return value;
  }
  if (type.kind === Kind.LIST_TYPE) return (Array.isArray(value) ? value : [value]).map((v) => resolveVariable(schema, v, type.type));
  return resolveVariable(schema, value, type.type);
}
