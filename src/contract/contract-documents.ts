import type { GraphQLSchema } from 'graphql';
import { buildPublicOpenApi, type OpenApiDocument } from './public-openapi.js';
import { ROUTES } from './route-registry.js';

/**
 * The contract documents, generated once from Sofa's OpenAPI output when the router is built,
 * then served as they are on every request.
 */
export class ContractDocuments {
  private publicDoc: OpenApiDocument | undefined;

  /** Called with Sofa's raw document each time the Sofa router is (re)built. */
  update(sofaDocument: OpenApiDocument, schema: GraphQLSchema): void {
    this.publicDoc = buildPublicOpenApi(sofaDocument, ROUTES, schema);
  }

  publicDocument(): OpenApiDocument {
    if (!this.publicDoc) throw new Error('the public OpenAPI document is not built yet');
    return this.publicDoc;
  }
}
