import { actionAvailabilityNow } from '../resolvers/graph/protocol-actions.js';
import { GRAPH_ONLY } from '../src/http/rest/rest-schema.js';
import { builder } from './builder.js';
import { PublicActionRef } from './protocol.js';

// Graph-only: whether the caller could execute an action now (the REST protocol routes are public and caller-independent).
builder.objectFields(PublicActionRef, (t) => ({
  availableNow: t.boolean({
    extensions: GRAPH_ONLY,
    description:
      'Whether the caller could execute this action now: false without a key or wallet session, and while a standing check blocks it ' +
      '(execution disabled, certification, kill switch, circuit breaker, venue down, missing execute:live scope or agent session), as in capabilities.',
    resolve: async (a, _args, ctx) => (await actionAvailabilityNow(ctx, a)).availableNow,
  }),
  unavailableCode: t.string({
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'When not available now: the code an execution would meet first (e.g. VENUE_UNHEALTHY, POLICY_DENIED, authentication_required).',
    resolve: async (a, _args, ctx) => (await actionAvailabilityNow(ctx, a)).code,
  }),
  unavailableReason: t.string({
    nullable: true,
    extensions: GRAPH_ONLY,
    description: 'When not available now: why, in words.',
    resolve: async (a, _args, ctx) => (await actionAvailabilityNow(ctx, a)).reason,
  }),
}));
