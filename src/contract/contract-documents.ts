import type { GraphQLSchema } from 'graphql';
import { buildContractOpenApi, type OpenApiDocument } from './contract-openapi.js';
import { ROUTES } from './route-registry.js';
import { immutableJson } from '../domain/rendered-json.js';

/**
 * The contract documents, generated once from Sofa's OpenAPI output when the router is built,
 * then served as they are on every request: deep-frozen, with their JSON text rendered once
 * (`immutableJson`), which the public fast path reuses instead of serialising per request.
 */
export class ContractDocuments {
  private publicDoc: OpenApiDocument | undefined;
  private fullDoc: OpenApiDocument | undefined;

  /** Called with Sofa's raw document each time the Sofa router is (re)built. */
  update(sofaDocument: OpenApiDocument, schema: GraphQLSchema): void {
    this.publicDoc = immutableJson(buildContractOpenApi(sofaDocument, ROUTES, schema, 'public'));
    this.fullDoc = immutableJson(buildContractOpenApi(sofaDocument, ROUTES, schema, 'full'));
  }

  /** Public routes only (GET /api/v1/public/openapi.public.json). */
  publicDocument(): OpenApiDocument {
    if (!this.publicDoc) throw new Error('the contract documents are not built yet');
    return this.publicDoc;
  }

  /** Every route, with the bearer security scheme (GET /api/v1/openapi.json, any valid key). */
  fullDocument(): OpenApiDocument {
    if (!this.fullDoc) throw new Error('the contract documents are not built yet');
    return this.fullDoc;
  }
}
