import { SOURCE_STATUSES } from '../domain/source-health.js';

/** Spec: Error response. */
export const ERROR_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['error'],
  additionalProperties: true,
  properties: {
    error: { type: 'string', description: 'HTTP reason phrase.' },
    code: { type: 'string', description: 'Machine-readable code (see the contract: Errors).' },
    message: { type: 'string' },
    details: { type: 'object', additionalProperties: true, description: 'Internal gate names may appear only here.' },
    retryAfter: { type: 'integer', description: 'Seconds to wait before retrying.' },
    requestId: { type: 'string', description: 'Also sent as the x-request-id header.' },
    retryable: { type: 'boolean' },
    nextAction: { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] },
  },
} as const;

/** Spec: Freshness object (additional properties allowed). */
export const FRESHNESS_SCHEMA = {
  type: 'object',
  required: ['asOf', 'stale'],
  additionalProperties: true,
  properties: {
    asOf: { type: 'string', format: 'date-time' },
    freshnessMs: { type: 'integer', minimum: 0 },
    stale: { type: 'boolean' },
    staleReason: { type: ['string', 'null'] },
    sourceStatus: { type: 'string', enum: [...SOURCE_STATUSES] },
  },
} as const;

/** Spec: Public envelope, the base every route's envelope extends. */
export const PUBLIC_ENVELOPE_SCHEMA = {
  type: 'object',
  required: ['schemaVersion', 'generatedAt', 'freshness', 'data'],
  additionalProperties: true,
  properties: {
    schemaVersion: { type: 'string' },
    generatedAt: { type: 'string', format: 'date-time' },
    freshness: { $ref: '#/components/schemas/Freshness' },
    sources: { type: 'array', items: { type: 'object', additionalProperties: true } },
    methodology: { type: 'string' },
    citations: { type: 'array', items: { type: 'object', additionalProperties: true } },
    relatedActions: { type: 'array', items: { type: 'object', additionalProperties: true } },
    data: {},
  },
} as const;
