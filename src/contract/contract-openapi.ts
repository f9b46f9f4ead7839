/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI and JSON Schema documents are free-form JSON, walked and rewritten here. */
import { getNamedType, isNonNullType, isObjectType, type GraphQLSchema } from 'graphql';
import { sofaPath } from './route-registry.js';
import { CONTRACT_SCHEMA_VERSION, type RouteSpec } from './route-spec.js';
import { RESPONSE_HEADERS } from './openapi-errors.js';
import { operationOf } from './openapi-operation.js';
import { requestSchemas, responseEnums } from './openapi-requests.js';
import type { ProtocolDefinition } from '../protocols/protocol.js';
import { ERROR_RESPONSE_SCHEMA, FRESHNESS_SCHEMA, PUBLIC_ENVELOPE_SCHEMA } from './openapi-schemas.js';

export type OpenApiDocument = Record<string, any>;
type JsonSchema = Record<string, any>;

const REF = '#/components/schemas/';

export type ContractAudience = 'public' | 'full';

const INFO: Record<ContractAudience, { title: string; description: string }> = {
  public: {
    title: 'Trading Gateway: public market data',
    description:
      'Unauthenticated, cache-first, read-only market data. Every data response is a public envelope with freshness metadata; stale data must not be treated as an execution signal.',
  },
  full: {
    title: 'Trading Gateway: full contract',
    description: 'Public and authenticated routes. Authenticated routes take Authorization: Bearer <API key> with the scopes listed in x-required-scopes.',
  },
};

/**
 * A contract document: Sofa's OpenAPI 3.0 output filtered to the registry's routes for an
 * audience (public routes only, or all) and upgraded to OpenAPI 3.1.0: registry parameters
 * (enums, bounds, defaults), the envelope and error schemas as components, every declared error
 * status, security, and nullability from the GraphQL schema.
 */
export function buildContractOpenApi(
  sofaDoc: OpenApiDocument,
  routes: readonly RouteSpec[],
  schema: GraphQLSchema,
  audience: ContractAudience,
  /** The protocols the configured venues serve: the request bodies and records name them. */
  protocols: readonly ProtocolDefinition[],
): OpenApiDocument {
  const paths: Record<string, any> = {};
  // Spec, Versioning: internal routes are excluded from the contract.
  for (const route of routes.filter((r) => (audience === 'full' && r.visibility !== 'internal') || r.visibility === 'public')) {
    const sofaOp = sofaDoc.paths?.[sofaPath(route).replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    if (!sofaOp) throw new Error(`Sofa produced no operation for ${route.method} ${route.path}`);
    const success = sofaOp.responses?.['200']?.content?.['application/json']?.schema;
    if (!success) throw new Error(`Sofa produced no success schema for ${route.path}`);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(route, sofaOp, success) };
  }

  const own: Record<string, JsonSchema> = {
    PublicEnvelope: PUBLIC_ENVELOPE_SCHEMA,
    Freshness: FRESHNESS_SCHEMA,
    ErrorResponse: ERROR_RESPONSE_SCHEMA,
    ...requestSchemas(protocols),
  };
  const enums = responseEnums(protocols);
  // Only the components the document's operations use, so neither document carries unused ones.
  const schemas: Record<string, JsonSchema> = {};
  const pending = [...refsIn(paths)];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (schemas[name]) continue;
    if (own[name]) {
      schemas[name] = own[name];
      pending.push(...refsIn(own[name]));
      continue;
    }
    const raw = sofaDoc.components?.schemas?.[name];
    if (!raw) throw new Error(`Sofa's document has no schema ${name}`);
    schemas[name] = upgradeSchema(name, raw, schema, enums);
    pending.push(...refsIn(schemas[name]));
  }

  return {
    openapi: '3.1.0',
    info: {
      ...INFO[audience],
      version: '1.0.0',
      contact: { name: 'Trading gateway maintainers' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      'x-contract-schema-version': CONTRACT_SCHEMA_VERSION,
    },
    servers: [{ url: '/', description: 'The gateway serving this document.' }],
    tags: [
      { name: 'public', description: 'Public data plane (no authentication).' },
      ...(audience === 'full'
        ? [
            { name: 'public-auth', description: 'Sign in with Ethereum: public by security, the steps that obtain a wallet session.' },
            { name: 'authenticated', description: 'Bearer API key with scopes, or a wallet session.' },
          ]
        : []),
    ],
    paths,
    components: {
      schemas: sortKeys(schemas),
      ...(audience === 'full'
        ? {
            securitySchemes: {
              bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key issued by the gateway (tgw_...), or a wallet session.' },
              walletSession: { type: 'http', scheme: 'bearer', description: 'A wallet session from POST /api/v1/auth/siwe/verify (tgws_...).' },
            },
          }
        : {}),
      headers: Object.fromEntries(Object.entries(RESPONSE_HEADERS).filter(([name]) => JSON.stringify(paths).includes(`"#/components/headers/${name}"`))),
    },
  };
}

/** Sofa never marks nullable fields: take nullability from the GraphQL type (3.1 style). */
function upgradeSchema(name: string, raw: JsonSchema, schema: GraphQLSchema, enums: Record<string, readonly string[]>): JsonSchema {
  const type = schema.getType(name);
  const out: JsonSchema = structuredClone(raw);
  if (!isObjectType(type) || !out.properties) return out;
  const fields = type.getFields();
  for (const [prop, propSchema] of Object.entries<JsonSchema>(out.properties)) {
    const values = enums[`${name}.${prop}`];
    const typed = values ? { ...propSchema, enum: [...values] } : propSchema;
    const field = fields[prop];
    out.properties[prop] = field && !isNonNullType(field.type) ? nullable(typed) : typed;
  }
  // Sofa selects every field, so each is always sent: nullable ones as null.
  out.required = Object.keys(out.properties);
  if (name.endsWith('Envelope')) {
    out.additionalProperties = true;
    out.required = [...new Set([...(out.required ?? []), 'data'])];
    out.properties.freshness = { $ref: `${REF}Freshness` };
    return { allOf: [{ $ref: `${REF}PublicEnvelope` }, out], description: out.description };
  }
  if (getNamedType(type).name === 'Freshness') out.additionalProperties = true;
  return out;
}

function nullable(s: JsonSchema): JsonSchema {
  if (s.$ref) {
    const { $ref, ...rest } = s;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  const out: JsonSchema = { ...s, type: Array.isArray(s.type) ? [...new Set([...s.type, 'null'])] : [s.type, 'null'] };
  if (Array.isArray(s.enum)) out.enum = [...s.enum, null];
  return out;
}

function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(REF)) found.add(v.slice(REF.length));
      else refsIn(v, found);
    }
  }
  return found;
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

/** Inlines every `$ref` of a schema, so it can be used without the document (workflow nodes). */
export function dereference(doc: OpenApiDocument, schema: unknown, depth = 0): any {
  if (depth > 32) throw new Error('schema nesting too deep to inline');
  if (Array.isArray(schema)) return schema.map((s) => dereference(doc, s, depth + 1));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (typeof ref === 'string' && ref.startsWith(REF)) {
    const { $ref: _ignored, ...rest } = schema as Record<string, unknown>;
    return { ...dereference(doc, doc.components.schemas[ref.slice(REF.length)], depth + 1), ...rest };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, dereference(doc, v, depth + 1)]));
}
