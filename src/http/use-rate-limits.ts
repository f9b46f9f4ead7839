import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { parseBearer } from '../auth/api-key-secret.js';
import { errorJson, errorResponse } from '../errors/error-response.js';
import type { RateDecision, RateLimiter, RatePolicy } from '../rate-limit/rate-limiter.js';
import { currentScope } from './request-scope.js';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** Per client address, for the public plane and anonymous GraphQL. */
  publicPolicy: RatePolicy;
  /** Per API key, for authenticated routes and GraphQL calls that carry a key. */
  keyPolicy: RatePolicy;
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  logger: Logger;
}

/**
 * Rate limits with the spec's 429 (retryAfter in the body, Retry-After) and the IETF RateLimit /
 * RateLimit-Policy headers on every limited response. Keys are counted by a digest of the
 * presented secret, so unknown keys are limited too and nothing is looked up first.
 */
export function useRateLimits(options: RateLimitOptions): Plugin {
  const decisions = new WeakMap<Request, RateDecision>();
  return {
    async onRequest({ request, serverContext, endResponse }) {
      const bearer = parseBearer(request.headers.get('authorization'));
      const isPublic = currentScope()?.route?.visibility === 'public';
      const [policy, bucket] =
        !isPublic && 'token' in bearer
          ? [options.keyPolicy, createHash('sha256').update(bearer.token).digest('base64url').slice(0, 24)]
          : [options.publicPolicy, clientAddress((serverContext as { req?: IncomingMessage }).req, request, options.trustProxy)];
      let decision: RateDecision;
      try {
        decision = await options.limiter.consume(policy, bucket);
      } catch (err) {
        // Reads stay available when the counter store is down; execution has its own fail-closed gates.
        options.logger.warn({ err }, 'rate limiter unavailable; request allowed');
        return;
      }
      decisions.set(request, decision);
      if (!decision.allowed) {
        const scope = currentScope();
        const body = errorResponse(429, 'rate_limited', `Too many requests; retry after ${decision.resetSeconds} s.`, scope?.requestId, {
          retryAfter: decision.resetSeconds,
          retryable: true,
          details: { policy: policy.name, limit: policy.points, windowSeconds: policy.windowSeconds },
          nextAction: 'Back off and retry after the rate-limit window.',
        });
        endResponse(errorJson(429, body, { 'retry-after': String(decision.resetSeconds), ...rateLimitHeaders(decision) }));
      }
    },
    onResponse({ request, response }) {
      const decision = decisions.get(request);
      if (!decision || !decision.allowed) return;
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.headers.set(name, value);
    },
  };
}

/** draft-ietf-httpapi-ratelimit-headers: structured fields naming the policy. */
function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    'ratelimit-policy': `"${d.policy.name}";q=${d.policy.points};w=${d.policy.windowSeconds}`,
    ratelimit: `"${d.policy.name}";r=${d.remaining};t=${d.resetSeconds}`,
  };
}

function clientAddress(req: IncomingMessage | undefined, request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return req?.socket.remoteAddress ?? 'unknown';
}
