import type { Freshness } from '../../src/domain/freshness.js';
import type { GatewayContext } from '../../src/http/gateway-context.js';

/** Schema version carried by every public envelope. */
export const PUBLIC_SCHEMA_VERSION = 'service.public-data.v1';

/** Spec: Public envelope. */
export interface PublicEnvelope<T> {
  schemaVersion: string;
  generatedAt: number;
  freshness: Freshness;
  data: T;
}

/** Wraps a payload and tells the HTTP layer its freshness (for Cache-Control) and status. */
export function publicEnvelope<T>(ctx: GatewayContext, data: T, freshness: Freshness, now: number, status?: number): PublicEnvelope<T> {
  if (ctx.http) {
    ctx.http.freshness = freshness;
    if (status !== undefined) ctx.http.status = status;
  }
  return { schemaVersion: PUBLIC_SCHEMA_VERSION, generatedAt: now, freshness, data };
}
