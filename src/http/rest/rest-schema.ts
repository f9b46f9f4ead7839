import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';

/** The extension that marks a field of the graph which no REST route selects or documents. */
export const GRAPH_ONLY = { graphOnly: true } as const;

/**
 * The schema Sofa builds the REST routes and their OpenAPI from: the full schema without its
 * graph-only fields (Market.orderBook, Protocol.marketList, viewer, marketGraph…), so the
 * contract documents and REST responses stay what the routes promise. Resolvers are kept.
 */
export function restSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  return pruneSchema(
    filterSchema({
      schema,
      rootFieldFilter: (_op, _name, field) => field.extensions?.['graphOnly'] !== true,
      objectFieldFilter: (_type, _name, field) => field.extensions?.['graphOnly'] !== true,
    }),
  );
}
