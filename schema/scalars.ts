import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.js';
import { isoOfEpochMs, isRfc3339 } from '../src/domain/rfc3339.js';
import { DECIMAL_PATTERN, plainDecimal } from '../src/domain/validators.js';

/** Exactly what Date.prototype.toISOString() gives for years 0000-9999. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

builder.scalarType('DateTime', {
  description: 'An RFC 3339 date-time in UTC, such as 2026-11-22T10:00:00.000Z.',
  // Resolvers mostly hand over strings already in toISOString() form: pass them through unparsed.
  serialize: (value) =>
    typeof value === 'number' ? isoOfEpochMs(value) : typeof value === 'string' && ISO_UTC.test(value) ? value : new Date(value as string | Date).toISOString(),
  parseValue: (value) => {
    if (typeof value !== 'string' || !isRfc3339(value)) throw new GraphQLError('DateTime must be an RFC 3339 date-time string');
    return value;
  },
});

builder.scalarType('Decimal', {
  description: 'A decimal number as a string, never a float (such as "64012.5").',
  // Never exponent notation on the way out, so every answer meets its document's pattern.
  serialize: (value) => plainDecimal(value as string),
  parseValue: (value) => {
    if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) throw new GraphQLError('Decimal must be a decimal string such as "12.50"');
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || !DECIMAL_PATTERN.test(ast.value)) throw new GraphQLError('Decimal must be a decimal string such as "12.50"');
    return ast.value;
  },
});

builder.scalarType('JSONObject', {
  description: 'A free-form JSON object.',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new GraphQLError('JSONObject must be an object');
    return value as Record<string, unknown>;
  },
});
