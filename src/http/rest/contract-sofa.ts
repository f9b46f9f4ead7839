import type { GraphQLSchema } from 'graphql';
import { createSofa, createSofaRouter } from 'sofa-api';
import type { ContractDocuments } from '../../contract/contract-documents.js';
import { ROUTES, sofaPath } from '../../contract/route-registry.js';
import { DECIMAL_PATTERN } from '../../domain/validators.js';
import { restSchemaOf } from './rest-schema.js';

/** Sofa's route table, derived from the registry: one row per contract route. */
function sofaRoutes(): Record<string, { method: (typeof ROUTES)[number]['method']; path: string; tags: string[]; description: string }> {
  return Object.fromEntries(ROUTES.map((r) => [r.field, { method: r.method, path: sofaPath(r), tags: [r.visibility], description: r.summary }]));
}

/** Sofa's configuration for the REST schema: the schema, models, ignore list and depth limit its operations are built with. */
export type ContractSofa = ReturnType<typeof createSofa>;

/**
 * Sofa derives the contract from the schema: for every registry row the operation its route
 * runs (which fields a REST answer selects) and the OpenAPI document the contract documents are
 * made from. Its router only documents: requests are served by the gateway's stages
 * (src/http/pipeline), so no route exists beside the registry's (no webhooks, no docs UI).
 */
export function buildContractSofa(fullSchema: GraphQLSchema, contract: ContractDocuments): ContractSofa {
  const schema = restSchemaOf(fullSchema);
  const sofa = createSofa({
    schema,
    basePath: '/api',
    routes: sofaRoutes(),
    openAPI: { endpoint: '/openapi.json', info: { title: 'Trading Gateway', version: '1.0.0' } },
    swaggerUI: { endpoint: false },
    customScalars: {
      DateTime: { type: 'string', format: 'date-time' },
      Decimal: { type: 'string', pattern: DECIMAL_PATTERN.source },
      JSONObject: { type: 'object', additionalProperties: true },
    },
  });
  contract.update(createSofaRouter(sofa).openAPIDocument as never, schema);
  return sofa;
}
