import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { parseBearer } from '../auth/api-key-secret.js';
import { RequestAuth, type AuthResult, type Authenticator } from '../auth/authenticator.js';
import { errorResponse } from '../errors/error-response.js';
import type { RateDecision, RateLimiter, RatePolicy } from '../rate-limit/rate-limiter.js';
import { errorOutcome, errorOutcomeResponse, type ErrorOutcome } from './error-outcome.js';
import { credentialOutage } from './credential-outage.js';
import { currentScope } from './request-scope.js';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** Per client address, for the public plane and anonymous GraphQL. */
  publicPolicy: RatePolicy;
  /** Per verified API key (or wallet session), for authenticated routes and GraphQL calls that carry one. */
  keyPolicy: RatePolicy;
  /** Verifies a presented credential before it is given a key's budget. */
  authenticator: Authenticator;
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  logger: Logger;
  /** Told of every 429 the limiter decides (metrics). */
  onRejected?: (policy: string) => void;
}

/** The limiter's verdict on one request: a decision whose headers go on the answer, or a 429 to send instead. */
export interface RateCheck {
  /** Absent when the counter store is down (the request is allowed without RateLimit headers). */
  decision?: RateDecision;
  rejection?: ErrorOutcome;
}

/** What the limiter needs to know of a request, from a fetch Request or a node:http one alike. */
export interface RateSubject {
  /** The matched contract route is public: counted per client address whatever key it carries. */
  isPublic: boolean;
  /** The caller's credential once verified; anything but a valid key or session counts as the client address. */
  verified?: AuthResult | undefined;
  forwardedFor: string | null | undefined;
  remoteAddress: string | undefined;
  requestId: string | undefined;
}

/**
 * Counts one request against its policy. Only a verified key (or wallet session) gets the key's
 * budget; a made-up or revoked credential counts against the client address, so presenting a new
 * random token per request gains nothing.
 */
export async function checkRateLimit(options: RateLimitOptions, subject: RateSubject): Promise<RateCheck> {
  const identity = subject.isPublic ? undefined : verifiedBucket(subject.verified);
  const [policy, bucket] = identity ? [options.keyPolicy, identity] : [options.publicPolicy, clientAddress(subject, options.trustProxy)];
  let decision: RateDecision;
  try {
    decision = await options.limiter.consume(policy, bucket);
  } catch (err) {
    // Reads stay available when the counter store is down; execution has its own fail-closed gates.
    options.logger.warn({ err }, 'rate limiter unavailable; request allowed');
    return {};
  }
  if (decision.allowed) return { decision };
  options.onRejected?.(policy.name);
  const body = errorResponse(429, 'rate_limited', `Too many requests; retry after ${decision.resetSeconds} s.`, subject.requestId, {
    retryAfter: decision.resetSeconds,
    retryable: true,
    details: { policy: policy.name, limit: policy.points, windowSeconds: policy.windowSeconds },
    nextAction: 'Back off and retry after the rate-limit window.',
  });
  return { decision, rejection: errorOutcome(429, body, { 'retry-after': String(decision.resetSeconds), ...rateLimitHeaders(decision) }) };
}

/**
 * Rate limits with the spec's 429 (retryAfter in the body, Retry-After) and the IETF RateLimit /
 * RateLimit-Policy headers on every limited response.
 */
export function useRateLimits(options: RateLimitOptions): Plugin {
  const decisions = new WeakMap<Request, RateDecision>();
  return {
    async onRequest({ request, serverContext, endResponse }) {
      const scope = currentScope();
      const isPublic = scope?.route?.visibility === 'public';
      const header = request.headers.get('authorization');
      let verified: AuthResult | undefined;
      if (!isPublic && 'token' in parseBearer(header)) {
        // Verified once here and kept for the auth-first check and the resolvers.
        const auth = scope ? (scope.auth ??= new RequestAuth(options.authenticator, header)) : new RequestAuth(options.authenticator, header);
        try {
          verified = await auth.resolve();
        } catch (err) {
          return endResponse(errorOutcomeResponse(credentialOutage(err, scope, options.logger)));
        }
      }
      const check = await checkRateLimit(options, {
        isPublic,
        verified,
        forwardedFor: request.headers.get('x-forwarded-for'),
        remoteAddress: (serverContext as { req?: IncomingMessage }).req?.socket.remoteAddress,
        requestId: scope?.requestId,
      });
      if (check.rejection) return endResponse(errorOutcomeResponse(check.rejection));
      if (check.decision) decisions.set(request, check.decision);
    },
    onResponse({ request, response }) {
      const decision = decisions.get(request);
      if (!decision || !decision.allowed) return;
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.headers.set(name, value);
    },
  };
}

/** draft-ietf-httpapi-ratelimit-headers: structured fields naming the policy. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    'ratelimit-policy': `"${d.policy.name}";q=${d.policy.points};w=${d.policy.windowSeconds}`,
    ratelimit: `"${d.policy.name}";r=${d.remaining};t=${d.resetSeconds}`,
  };
}

/** The key-policy bucket of a verified credential: the key's id, or the wallet session's. */
export function verifiedBucket(auth: AuthResult | undefined): string | undefined {
  if (auth?.kind === 'key') return `key:${auth.key.id}`;
  if (auth?.kind === 'wallet') return `wallet:${auth.sessionId}`;
  return undefined;
}

export function clientAddress(subject: Pick<RateSubject, 'forwardedFor' | 'remoteAddress'>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = subject.forwardedFor?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return subject.remoteAddress ?? 'unknown';
}
