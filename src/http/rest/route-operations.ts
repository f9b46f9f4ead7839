import { buildOperationNodeForField } from '@graphql-tools/utils';
import { Kind, OperationTypeNode, type DocumentNode } from 'graphql';
import type { RouteSpec } from '../../contract/route-spec.js';
import type { ContractSofa } from './contract-sofa.js';

/** The GraphQL operation a contract route runs: its root field, every field of its type selected as Sofa documents it. */
export interface RouteOperation {
  document: DocumentNode;
  /** The root field, which is also the key of the answer in the result's `data`. */
  fieldName: string;
}

/**
 * Each contract route's operation, built once from Sofa's configuration (the REST schema, its
 * models, ignore list and depth limit) by the same @graphql-tools call that builds what Sofa
 * documents, so a REST answer is exactly the document's response schema.
 */
export function routeOperations(sofa: ContractSofa, routes: readonly RouteSpec[]): Map<RouteSpec, RouteOperation> {
  const operations = new Map<RouteSpec, RouteOperation>();
  for (const route of routes) {
    const [root, fieldName] = route.field.split('.') as ['Query' | 'Mutation', string];
    const operation = buildOperationNodeForField({
      kind: root === 'Query' ? OperationTypeNode.QUERY : OperationTypeNode.MUTATION,
      schema: sofa.schema,
      field: fieldName,
      models: sofa.models,
      ignore: sofa.ignore,
      circularReferenceDepth: sofa.depthLimit,
    });
    operations.set(route, { document: { kind: Kind.DOCUMENT, definitions: [operation] }, fieldName });
  }
  return operations;
}
