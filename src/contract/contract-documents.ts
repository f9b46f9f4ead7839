import type { GraphQLSchema } from 'graphql';
import { buildContractOpenApi, type OpenApiDocument } from './contract-openapi.js';
import { ROUTES } from './route-registry.js';
import { immutableJson } from '../domain/rendered-json.js';
import type { ProtocolDefinition } from '../protocols/protocol.js';

/**
 * The contract documents, generated once from Sofa's OpenAPI output when the router is built,
 * then served as they are on every request: deep-frozen, with their JSON text rendered once
 * (`immutableJson`), which the public fast path reuses instead of serialising per request.
 */
export class ContractDocuments {
  private publicDoc: OpenApiDocument | undefined;
  private fullDoc: OpenApiDocument | undefined;

  /** The protocols the configured venues serve: the documents' request bodies and records name them. */
  constructor(private readonly protocols: () => readonly ProtocolDefinition[]) {}

  /** Called with Sofa's raw document when the contract is derived from the schema. */
  update(sofaDocument: OpenApiDocument, schema: GraphQLSchema): void {
    this.publicDoc = immutableJson(buildContractOpenApi(sofaDocument, ROUTES, schema, 'public', this.protocols()));
    this.fullDoc = immutableJson(buildContractOpenApi(sofaDocument, ROUTES, schema, 'full', this.protocols()));
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
