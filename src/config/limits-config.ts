import { z } from 'zod';

const int = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

/** Every bound the gateway puts on a request, with its environment variable (README, Limits and hardening). */
const env = z.object({
  /** Longest GraphQL document read, in bytes, before it is parsed. */
  GRAPHQL_MAX_DOCUMENT_BYTES: int(16_384),
  /** Most lexical tokens in one GraphQL document; parsing stops at the first one over. */
  GRAPHQL_MAX_TOKENS: int(2_000),
  GRAPHQL_MAX_DEPTH: int(12),
  GRAPHQL_MAX_ALIASES: int(30),
  GRAPHQL_MAX_DIRECTIVES: int(30),
  /** graphql-armor's cost: 2 per object, 1 per scalar, times 1.5 per level of depth. */
  GRAPHQL_MAX_COST: int(5_000),
  /** Largest request body (REST and GraphQL), enforced while it streams in. */
  GATEWAY_MAX_BODY_BYTES: int(65_536),
  /** Largest graphql-ws message. */
  WS_MAX_MESSAGE_BYTES: int(65_536),
  /** Largest graphql-ws `connection_init` payload (JSON bytes). */
  WS_MAX_INIT_PAYLOAD_BYTES: int(4_096),
  /** Open graphql-ws sockets per client address. */
  WS_MAX_SOCKETS_PER_ADDRESS: int(32),
  WS_MAX_SUBSCRIPTIONS_PER_SOCKET: int(100),
  /** Open subscriptions per API key or wallet session, over all its sockets. */
  WS_MAX_SUBSCRIPTIONS_PER_KEY: int(500),
  /** Browser origins allowed to call authenticated routes and /graphql (comma-separated; empty: none). */
  CORS_ORIGINS: z.string().default(''),
});

export interface GatewayLimits {
  graphql: { maxDocumentBytes: number; maxTokens: number; maxDepth: number; maxAliases: number; maxDirectives: number; maxCost: number };
  maxBodyBytes: number;
  ws: { maxMessageBytes: number; maxInitPayloadBytes: number; maxSocketsPerAddress: number; maxSubscriptionsPerSocket: number; maxSubscriptionsPerKey: number };
  corsOrigins: readonly string[];
}

/** Reads the limits from the environment; a bad value throws naming the variable. */
export function readLimits(source: NodeJS.ProcessEnv): GatewayLimits {
  const parsed = env.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const e = parsed.data;
  return {
    graphql: {
      maxDocumentBytes: e.GRAPHQL_MAX_DOCUMENT_BYTES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      maxCost: e.GRAPHQL_MAX_COST,
    },
    maxBodyBytes: e.GATEWAY_MAX_BODY_BYTES,
    ws: {
      maxMessageBytes: e.WS_MAX_MESSAGE_BYTES,
      maxInitPayloadBytes: e.WS_MAX_INIT_PAYLOAD_BYTES,
      maxSocketsPerAddress: e.WS_MAX_SOCKETS_PER_ADDRESS,
      maxSubscriptionsPerSocket: e.WS_MAX_SUBSCRIPTIONS_PER_SOCKET,
      maxSubscriptionsPerKey: e.WS_MAX_SUBSCRIPTIONS_PER_KEY,
    },
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  };
}
