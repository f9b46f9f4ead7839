import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import type { RouteSpec } from '../../contract/route-spec.js';

export interface InputProblem {
  field: string;
  message: string;
}

/** How each scalar is described to a REST client (never GraphQL's own type names). */
const SCALAR_WORDS: Record<string, string> = {
  String: 'a string',
  ID: 'a string',
  Int: 'an integer',
  Float: 'a number',
  Boolean: 'true or false',
  Decimal: 'a decimal string such as "1.5"',
  DateTime: 'an RFC 3339 date-time such as "2026-11-22T10:00:00Z"',
  JSONObject: 'a JSON object',
};

/**
 * A REST body checked strictly against its route's GraphQL arguments before Sofa sees it: a JSON
 * object, no field the route does not take (a typo'd `approvalID` is named, not dropped), every
 * required field present, and each value of its own JSON type (no number coerced into a string).
 * The message names the field in the client's terms.
 */
export function restBodyProblem(schema: GraphQLSchema, route: RouteSpec, body: unknown): InputProblem | undefined {
  const [rootName, fieldName] = route.field.split('.') as [string, string];
  const root = rootName === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[fieldName];
  if (!field) return undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { field: '', message: 'The request body must be a JSON object.' };
  const fromPath = new Set(Object.keys(route.pathParams ?? {}));
  const fromQuery = new Set(Object.keys(route.queryParams ?? {}));
  const args = new Map<string, GraphQLArgument>(field.args.map((a) => [a.name, a]));
  for (const key of Object.keys(body)) {
    if (!args.has(key) || fromPath.has(key))
      return { field: key, message: `'${key}' is not a field of this request; it takes ${listOf(field.args, fromPath)}.` };
  }
  for (const arg of field.args) {
    if (fromPath.has(arg.name) || fromQuery.has(arg.name)) continue;
    const problem = valueProblem(arg.type, (body as Record<string, unknown>)[arg.name], arg.name, arg.defaultValue !== undefined);
    if (problem) return problem;
  }
  return undefined;
}

function valueProblem(type: GraphQLInputType, value: unknown, path: string, hasDefault = false): InputProblem | undefined {
  if (value === undefined) return type instanceof GraphQLNonNull && !hasDefault ? { field: path, message: `'${path}' is required.` } : undefined;
  if (value === null) return type instanceof GraphQLNonNull ? { field: path, message: `'${path}' must not be null.` } : undefined;
  const inner = type instanceof GraphQLNonNull ? type.ofType : type;
  if (inner instanceof GraphQLList) {
    if (!Array.isArray(value)) return { field: path, message: `'${path}' must be an array.` };
    for (const [i, item] of value.entries()) {
      const problem = valueProblem(inner.ofType, item, `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (inner instanceof GraphQLInputObjectType) {
    if (typeof value !== 'object' || Array.isArray(value)) return { field: path, message: `'${path}' must be an object.` };
    const fields = inner.getFields();
    for (const key of Object.keys(value)) {
      if (!(key in fields))
        return { field: `${path}.${key}`, message: `'${path}.${key}' is not a field of '${path}'; it takes ${Object.keys(fields).join(', ')}.` };
    }
    for (const f of Object.values(fields)) {
      const problem = valueProblem(f.type, (value as Record<string, unknown>)[f.name], `${path}.${f.name}`, f.defaultValue !== undefined);
      if (problem) return problem;
    }
    return undefined;
  }
  if (inner instanceof GraphQLEnumType) {
    const names = inner.getValues().map((v) => v.name);
    return typeof value === 'string' && names.includes(value) ? undefined : { field: path, message: `'${path}' must be one of ${names.join(', ')}.` };
  }
  if (inner instanceof GraphQLScalarType) return scalarProblem(inner, value, path);
  return undefined;
}

function scalarProblem(scalar: GraphQLScalarType, value: unknown, path: string): InputProblem | undefined {
  const wanted = SCALAR_WORDS[scalar.name] ?? 'a valid value';
  const fail = { field: path, message: `'${path}' must be ${wanted}.` };
  switch (scalar.name) {
    case 'String':
    case 'ID':
      return typeof value === 'string' ? undefined : fail;
    case 'Int':
      return Number.isInteger(value) && Math.abs(value as number) <= 2_147_483_647 ? undefined : fail;
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : fail;
    case 'Boolean':
      return typeof value === 'boolean' ? undefined : fail;
    default:
      try {
        scalar.parseValue(value);
        return undefined;
      } catch {
        return fail;
      }
  }
}

function listOf(args: readonly GraphQLArgument[], skip: ReadonlySet<string>): string {
  const names = args.filter((a) => !skip.has(a.name)).map((a) => a.name);
  return names.length > 0 ? names.join(', ') : 'no body fields';
}
